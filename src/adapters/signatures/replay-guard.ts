import { createHash } from 'node:crypto';

/** How long a signature is remembered: longer than the ±5 minutes its Date may be off, so it is refused while valid. */
export const REPLAY_MEMORY_MS = 11 * 60_000;
const MAX_REMEMBERED = 100_000;

/**
 * Remembers the signatures of accepted requests for as long as their Date keeps them valid, so that a captured
 * signed request cannot be sent again. Each process remembers its own (several processes behind a load balancer each
 * refuse a replay they have seen). Bounded: past `MAX_REMEMBERED` the oldest are forgotten first.
 */
export class ReplayGuard {
  /** Digest of a signature → when it may be forgotten (epoch ms); in insertion order, so oldest first. */
  private readonly seen = new Map<string, number>();

  /** True the first time a signature is presented within its memory, false for every later time. */
  firstUse(signature: Buffer, now: number): boolean {
    this.forgetExpired(now);
    const key = createHash('sha256').update(signature).digest('base64');
    if (this.seen.has(key)) return false;
    if (this.seen.size >= MAX_REMEMBERED) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(key, now + REPLAY_MEMORY_MS);
    return true;
  }

  private forgetExpired(now: number): void {
    for (const [key, until] of this.seen) {
      if (until > now) return;
      this.seen.delete(key);
    }
  }
}
