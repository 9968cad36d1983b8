import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { StoreUnavailableError } from '../../application/ports/errors.js';
import type { LoginThrottle, ThrottleVerdict } from '../../application/ports/login-throttle.js';

/** The counters live in the store: when it cannot answer, say so (503) rather than fail open or crash (500). */
async function storeCall<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (cause) {
    throw new StoreUnavailableError('login failure counters could not be read or written', { cause });
  }
}

/**
 * Failed-login counters from rate-limiter-flexible: one limiter keyed by username, one by client address, each
 * allowing `points` failures per window. Backed by memory, or by the SQLite file so that every process sharing
 * the store shares the counts.
 */
export class RateLimiterLoginThrottle implements LoginThrottle {
  constructor(
    private readonly byUsername: RateLimiterAbstract,
    private readonly byAddress: RateLimiterAbstract,
  ) {}

  async check(username: string, clientAddress: string): Promise<ThrottleVerdict> {
    const [user, address] = await storeCall(() =>
      Promise.all([this.byUsername.get(username), this.byAddress.get(clientAddress)]),
    );
    const waits = [
      user && user.consumedPoints >= this.byUsername.points ? user.msBeforeNext : 0,
      address && address.consumedPoints >= this.byAddress.points ? address.msBeforeNext : 0,
    ];
    const waitMs = Math.max(...waits);
    return waitMs > 0
      ? { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
      : { limited: false };
  }

  async recordFailure(username: string, clientAddress: string): Promise<void> {
    await storeCall(() =>
      Promise.all([this.byUsername.penalty(username, 1), this.byAddress.penalty(clientAddress, 1)]),
    );
  }

  async recordSuccess(username: string): Promise<void> {
    await storeCall(() => this.byUsername.delete(username));
  }
}
