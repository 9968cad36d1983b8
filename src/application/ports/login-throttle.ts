import type { ThrottleVerdict } from './rate-limit.js';

export type { ThrottleVerdict };

/**
 * Counts login attempts per normalised username and per client address. An attempt is counted BEFORE its password
 * is checked, so parallel guesses cannot all slip through while the first ones are still hashing; a successful
 * login then takes its attempt back.
 */
export interface LoginThrottle {
  /** Counts one attempt against both keys; `limited` when either has no attempt left in its window. */
  attempt(username: string, clientAddress: string): Promise<ThrottleVerdict>;
  /** After a successful login: forgets the username's count and gives the address its attempt back. */
  succeeded(username: string, clientAddress: string): Promise<void>;
}
