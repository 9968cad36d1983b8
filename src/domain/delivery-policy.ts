/** Retry schedule for outbound work: about 2 s, doubling with jitter, at most 10 minutes apart, for 24 hours. */
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
 * How long to wait after `failures` failures in a row: the first delay, doubled per failure, at most the maximum.
 * `random` in [0, 1) spreads it by up to ±20 % so that many retries to one recovering host do not arrive at once.
 */
export function retryDelayMs(policy: RetryPolicy, failures: number, random: number): number {
  const exponent = Math.max(0, failures - 1);
  const base = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(exponent, 40));
  return Math.min(policy.maxDelayMs, base * (0.8 + 0.4 * random));
}

/** When the next attempt runs after `failedAttempts` failures, or null once retrying would pass the deadline. */
export function nextAttemptAt(input: {
  policy: RetryPolicy;
  failedAttempts: number;
  firstQueuedAt: Date;
  now: Date;
  random: number;
}): Date | null {
  const { policy, failedAttempts, firstQueuedAt, now, random } = input;
  const at = new Date(now.getTime() + retryDelayMs(policy, failedAttempts, random));
  return at.getTime() - firstQueuedAt.getTime() > policy.giveUpAfterMs ? null : at;
}
