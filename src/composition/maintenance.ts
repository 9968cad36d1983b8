import type { DependencyContainer } from 'tsyringe';
import { CleanupRevocations } from '../application/use-cases/cleanup-revocations.js';
import { TOKENS } from './tokens.js';

export interface MaintenanceResult {
  readonly revocations: number;
  readonly issuedTokens: number;
}

/**
 * The periodic clean-up, shared by the hourly task and `l2 revocations cleanup`: expired revocation and
 * issued-token records, and login-failure counters whose window is over.
 */
export async function runMaintenance(c: DependencyContainer): Promise<MaintenanceResult> {
  const removed = await c.resolve(CleanupRevocations).execute();
  await c.resolve<() => Promise<void>>(TOKENS.PurgeExpiredLimits)();
  return removed;
}
