export type ThrottleVerdict =
  { readonly limited: false } | { readonly limited: true; readonly retryAfterSeconds: number };

/**
 * A budget of actions per key and window (registrations per client address, asset writes per user), kept in the
 * store so every process on it shares the counts. Consuming is atomic; a store that cannot count throws
 * StoreUnavailableError.
 */
export interface RateLimit {
  /** Counts one action against the key; `limited` once its budget for the window is used up. */
  consume(key: string): Promise<ThrottleVerdict>;
}
