import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../application/ports/clock.js';

/** How long a signature is remembered: longer than the ±5 minutes its Date may be off, so it is refused while valid. */
export const REPLAY_MEMORY_MS = 11 * 60_000;
const MAX_REMEMBERED = 100_000;

/**
 * Remembers the signatures of accepted requests for as long as their Date keeps them valid, so that a captured
 * signed request cannot be sent again. Each process remembers its own (several processes behind a load balancer each
 * refuse a replay they have seen). Bounded: past `max` the oldest are forgotten first — and only then is a signature
 * forgotten before its time (a lookup does not make an entry recent, so the least recently used is the oldest).
 */
export class ReplayGuard {
  /** Digest of a signature → seen, for REPLAY_MEMORY_MS of `clock`'s time. */
  private readonly seen: LRUCache<string, true>;

  constructor(clock: Clock, max = MAX_REMEMBERED) {
    this.seen = new LRUCache<string, true>({
      max,
      ttl: REPLAY_MEMORY_MS,
      perf: { now: () => clock.now().getTime() },
      // Read the clock on every check: its time may jump (a test's clock), and a cached reading would lag it.
      ttlResolution: 0,
    });
  }

  /** True the first time a signature is presented within its memory, false for every later time. */
  firstUse(signature: Buffer): boolean {
    const key = createHash('sha256').update(signature).digest('base64');
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    return true;
  }
}
