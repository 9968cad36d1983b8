import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimit, ThrottleVerdict } from '../../application/ports/rate-limit.js';
import { consume, verdictOf } from './rate-limiter-login-throttle.js';

/** One rate-limiter-flexible limiter as a RateLimit: `points` actions per key and window. */
export class RateLimiterBudget implements RateLimit {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async consume(key: string): Promise<ThrottleVerdict> {
    return verdictOf(await consume(this.limiter, key));
  }
}
