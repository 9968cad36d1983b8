import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { StoreUnavailableError } from '../../application/ports/errors.js';
import type { LoginThrottle, ThrottleVerdict } from '../../application/ports/login-throttle.js';

/**
 * Consumes one point, answering how long to wait when the allowance is used up. rate-limiter-flexible rejects
 * with a RateLimiterRes for "limited" and with an Error when its store fails: that one must become a 503.
 */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key, 1);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
    throw new StoreUnavailableError('rate-limit counters could not be written', { cause: rejection });
  }
}

export const verdictOf = (waitMs: number): ThrottleVerdict =>
  waitMs > 0 ? { limited: true, retryAfterSeconds: Math.ceil(waitMs / 1000) } : { limited: false };

async function storeCall(operation: () => Promise<unknown>): Promise<void> {
  try {
    await operation();
  } catch (cause) {
    throw new StoreUnavailableError('login attempt counters could not be written', { cause });
  }
}

/**
 * Attempt counters from rate-limiter-flexible: one limiter keyed by username, one by client address, each
 * allowing `points` attempts per window. Backed by memory, SQLite or MongoDB, so every process sharing the store
 * shares the counts, and a consume is atomic in each store.
 */
export class RateLimiterLoginThrottle implements LoginThrottle {
  constructor(
    private readonly byUsername: RateLimiterAbstract,
    private readonly byAddress: RateLimiterAbstract,
  ) {}

  async attempt(username: string, clientAddress: string): Promise<ThrottleVerdict> {
    const waits = await Promise.all([
      consume(this.byUsername, username),
      consume(this.byAddress, clientAddress),
    ]);
    return verdictOf(Math.max(...waits));
  }

  async succeeded(username: string, clientAddress: string): Promise<void> {
    await storeCall(() =>
      Promise.all([this.byUsername.delete(username), this.byAddress.reward(clientAddress, 1)]),
    );
  }
}
