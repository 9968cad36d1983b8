import type { DependencyContainer } from 'tsyringe';
import { TOKENS } from './tokens.js';
import { useCasesOf } from './use-cases.js';

export interface MaintenanceResult {
  readonly revocations: number;
  readonly issuedTokens: number;
}

/**
 * The periodic clean-up, shared by the hourly task and `l2 revocations cleanup`: expired revocation and
 * issued-token records, and login-failure counters whose window is over.
 */
export async function runMaintenance(c: DependencyContainer): Promise<MaintenanceResult> {
  const removed = await useCasesOf(c).cleanupRevocations.execute();
  await c.resolve<() => Promise<void>>(TOKENS.PurgeExpiredLimits)();
  return removed;
}
