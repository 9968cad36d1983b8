export type ThrottleVerdict =
  { readonly limited: false } | { readonly limited: true; readonly retryAfterSeconds: number };

/** Counts failed logins per normalised username and per client address. */
export interface LoginThrottle {
  /** Whether another attempt for this username or from this address must be refused now. Does not count. */
  check(username: string, clientAddress: string): Promise<ThrottleVerdict>;
  /** Counts one failed attempt against both the username and the address. */
  recordFailure(username: string, clientAddress: string): Promise<void>;
  /** Forgets the username's failures after a successful login; the address count stays. */
  recordSuccess(username: string): Promise<void>;
}
