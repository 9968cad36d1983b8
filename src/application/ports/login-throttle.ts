import type { ThrottleVerdict } from './rate-limit.js';

export type { ThrottleVerdict };

/**
 * Counts login attempts per normalised username and per client address. An attempt is counted BEFORE its password
 * is checked, so parallel guesses cannot all slip through while the first ones are still hashing; a successful
 * login then takes its attempt back.
 *
 * `clientAddress` is an IPv4 address, or the IPv6 network one subscriber holds in CIDR notation (a /64); for IPv6
 * the throttle also counts the wider networks around it (a /56 is one home, a /48 one site), which hold hundreds
 * or thousands of /64s each. Anything else is an opaque key of its own.
 */
export interface LoginThrottle {
  /** Counts one attempt against every key; `limited` when any has no attempt left in its window. */
  attempt(username: string, clientAddress: string): Promise<ThrottleVerdict>;
  /** After a successful login: forgets the username's count and gives each address key its attempt back. */
  succeeded(username: string, clientAddress: string): Promise<void>;
  /**
   * After an attempt refused before its password was checked (the service was too busy): the username gets its
   * attempt back, so a person retrying through a storm does not lock their own account. The address keys keep
   * theirs, so a flood that retries at once still spends its budget.
   */
  notChecked(username: string): Promise<void>;
}
