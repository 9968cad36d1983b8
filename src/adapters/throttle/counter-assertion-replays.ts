import { createHash } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AssertionReplays } from '../../application/ports/assertion-replays.js';
import { consume, verdictOf } from './rate-limiter-login-throttle.js';

/**
 * The jti memory of client assertions on the store's rate-limit counters (one point per client and jti, for the
 * replay window): the counters are shared by every process on the store, consumed atomically, contract-tested on
 * every store and purged by the hourly clean-up — what a replay memory needs, without a table of its own
 * (docs/adr/0020). The key is a hash, so a long client_id or jti costs the store no more than a short one.
 */
export class CounterAssertionReplays implements AssertionReplays {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async firstUse(clientId: string, jti: string): Promise<boolean> {
    const key = createHash('sha256').update(`${clientId}\n${jti}`).digest('base64url');
    return !verdictOf(await consume(this.limiter, key)).limited;
  }
}
