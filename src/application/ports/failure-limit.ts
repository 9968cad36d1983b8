import type { ThrottleVerdict } from './rate-limit.js';

/**
 * A budget of failures per key and window (introspected tokens that do not verify, per client address; wrong
 * authenticator-app codes, per account), kept in the store so every process on it shares the counts. Unlike a
 * RateLimit, only failures spend it; what a spent budget refuses is the caller's to decide.
 */
export interface FailureLimit {
  /** Whether the key may go on: `limited` once its failures in the window reached the budget. Writes nothing. */
  check(key: string): Promise<ThrottleVerdict>;
  /** Counts one failure against the key. */
  failed(key: string): Promise<void>;
}
