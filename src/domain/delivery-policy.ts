/** Retry schedule for outbound notices: about 2 s, doubling with jitter, at most 10 minutes apart, for 24 hours. */
export interface RetryPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly giveUpAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  firstDelayMs: 2_000,
  maxDelayMs: 10 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
};

/**
 * When the next attempt runs after `failedAttempts` failures, or null once retrying would pass the deadline.
 * `random` in [0, 1) spreads retries by up to ±20 % so that many notices to one recovering L1 do not arrive at once.
 */
export function nextAttemptAt(input: {
  policy: RetryPolicy;
  failedAttempts: number;
  firstQueuedAt: Date;
  now: Date;
  random: number;
}): Date | null {
  const { policy, failedAttempts, firstQueuedAt, now, random } = input;
  const exponent = Math.max(0, failedAttempts - 1);
  const base = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(exponent, 40));
  const jittered = Math.min(policy.maxDelayMs, base * (0.8 + 0.4 * random));
  const at = new Date(now.getTime() + jittered);
  return at.getTime() - firstQueuedAt.getTime() > policy.giveUpAfterMs ? null : at;
}
