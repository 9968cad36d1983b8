import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { StoreUnavailableError } from '../../application/ports/errors.js';
import type { FailureLimit } from '../../application/ports/failure-limit.js';
import type { ThrottleVerdict } from '../../application/ports/rate-limit.js';
import { verdictOf } from './rate-limiter-login-throttle.js';

/**
 * One rate-limiter-flexible limiter as a FailureLimit: `points` failures per key and window. Checking reads the
 * counter (no write on the good path); a failure adds a point with `penalty`, which never rejects, so the check is
 * what refuses.
 */
export class RateLimiterFailureLimit implements FailureLimit {
  constructor(
    private readonly limiter: RateLimiterAbstract,
    private readonly points: number,
  ) {}

  async check(key: string): Promise<ThrottleVerdict> {
    try {
      const counted = await this.limiter.get(key);
      if (!counted || counted.consumedPoints < this.points) return { limited: false };
      return verdictOf(Math.max(1, counted.msBeforeNext));
    } catch (cause) {
      throw new StoreUnavailableError('failure counters could not be read', { cause });
    }
  }

  async failed(key: string): Promise<void> {
    try {
      await this.limiter.penalty(key, 1);
    } catch (cause) {
      throw new StoreUnavailableError('failure counters could not be written', { cause });
    }
  }
}
