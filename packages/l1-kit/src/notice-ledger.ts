/** L2 retries one notice for 24 hours; remember its id a little longer so the hook runs once per notice. */
const NOTICE_MEMORY_MS = 25 * 60 * 60_000;
const MAX_REMEMBERED_NOTICES = 100_000;

/** What the ledger knows of a notice: see {@link NoticeLedger.claim}. */
export type NoticeStanding = 'new' | 'replayed' | 'pending' | 'done';

/**
 * The notices a receiver has seen, by id (`jti`): until when each is remembered, whether its hook finished, and the
 * digests of the logout tokens that brought it. Bounded: past 100 000 ids the oldest go first.
 */
export class NoticeLedger {
  readonly #notices = new Map<string, { until: number; done: boolean; tokens: Set<string> }>();

  constructor(private readonly now: () => number) {}

  /**
   * Records a notice by its id and the digest of the logout token that brought it: `new` the first time,
   * `replayed` for a logout token seen before (L2 signs every attempt afresh, so only a copy arrives twice),
   * `pending` for L2's redelivery while the hook still runs, `done` for one after the hook finished.
   */
  claim(jti: string, tokenDigest: string): NoticeStanding {
    const now = this.now();
    const seen = this.#notices.get(jti);
    if (seen !== undefined && seen.until > now) {
      if (seen.tokens.has(tokenDigest)) return 'replayed';
      seen.tokens.add(tokenDigest);
      return seen.done ? 'done' : 'pending';
    }
    this.#notices.delete(jti);
    this.#notices.set(jti, { until: now + NOTICE_MEMORY_MS, done: false, tokens: new Set([tokenDigest]) });
    for (const [id, entry] of this.#notices) {
      if (this.#notices.size <= MAX_REMEMBERED_NOTICES && entry.until > now) break;
      this.#notices.delete(id);
    }
    return 'new';
  }

  /** The hook finished with a notice (`handled`), or failed and L2's next attempt must be handled. */
  settle(jti: string, handled: boolean): void {
    const entry = this.#notices.get(jti);
    if (!entry) return;
    if (handled) entry.done = true;
    else this.#notices.delete(jti);
  }
}
