import { LRUCache } from 'lru-cache';
import type { Clock } from '../../application/ports/clock.js';

/** Unknown keys one client address may have fetched at the same time. */
export const KEY_FETCHES_AT_ONCE_PER_CLIENT = 4;
/** Unknown keys one client address may have fetched per minute. */
export const KEY_FETCHES_PER_MINUTE_PER_CLIENT = 60;
const WINDOW_MS = 60_000;

export type Charge =
  { readonly ok: true; release(): void } | { readonly ok: false; readonly retryAfterSeconds: number };

interface Account {
  running: number;
  windowStart: number;
  taken: number;
}

/**
 * What each client address may make this service fetch on its behalf: every inbox request naming an unknown key
 * costs a fetch from the key's server, so one client sending invented key ids must not hold the fetch slots that
 * other peers' keys need. Counted in this process (the slots it protects are this process's own).
 */
export class KeyFetchBudget {
  private readonly accounts = new LRUCache<string, Account>({ max: 100_000 });

  constructor(
    private readonly clock: Clock,
    private readonly atOnce = KEY_FETCHES_AT_ONCE_PER_CLIENT,
    private readonly perMinute = KEY_FETCHES_PER_MINUTE_PER_CLIENT,
  ) {}

  /** Takes one fetch from `client`'s budget, to be released once the fetch is over; or how long to wait. */
  take(client: string): Charge {
    const now = this.clock.now().getTime();
    let account = this.accounts.get(client);
    if (account === undefined) {
      account = { running: 0, windowStart: now, taken: 0 };
      this.accounts.set(client, account);
    }
    if (now - account.windowStart >= WINDOW_MS) {
      account.windowStart = now;
      account.taken = 0;
    }
    if (account.taken >= this.perMinute)
      return { ok: false, retryAfterSeconds: Math.ceil((account.windowStart + WINDOW_MS - now) / 1000) };
    if (account.running >= this.atOnce) return { ok: false, retryAfterSeconds: 5 };
    account.taken++;
    account.running++;
    let released = false;
    const held = account;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        held.running--;
      },
    };
  }
}
