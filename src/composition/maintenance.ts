import type { L2Parts } from './compose.js';

export interface MaintenanceResult {
  readonly revocations: number;
  readonly issuedTokens: number;
  readonly authorizationCodes: number;
  /** Challenges (WebAuthn, second steps, reset links) that expired unused. */
  readonly challenges: number;
}

/**
 * The periodic clean-up, shared by the hourly task and `l2 revocations cleanup`: expired revocation and
 * issued-token records, authorization codes a day past their expiry, expired challenges, and rate-limit counters
 * whose window is over.
 */
export async function runMaintenance(l2: L2Parts): Promise<MaintenanceResult> {
  const removed = await l2.useCases.cleanupRevocations.execute();
  const challenges = await l2.useCases.cleanupChallenges.execute();
  await l2.purgeExpiredLimits();
  return { ...removed, challenges };
}
