import type { ThrottleVerdict } from './rate-limit.js';

/**
 * A budget of failures per key and window (introspections answered inactive, per client address), kept in the store
 * so every process on it shares the counts. Unlike a RateLimit, only failures spend it; once spent, every request of
 * the key is refused until the window ends — so that a caller cannot tell a refused guess from a good one.
 */
export interface FailureLimit {
  /** Whether the key may go on: `limited` once its failures in the window reached the budget. Writes nothing. */
  check(key: string): Promise<ThrottleVerdict>;
  /** Counts one failure against the key. */
  failed(key: string): Promise<void>;
}
