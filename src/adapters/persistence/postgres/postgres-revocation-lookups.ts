// /auth/verify asks the store one question per request: is this token's hash revoked? Under load, asking each on
// its own costs a statement — a server round trip and a wake-up of a PostgreSQL process — per request, and those,
// not the lookup, are what limit verify on PostgreSQL. So lookups are sent as they come while a few are in flight,
// and the ones that arrive meanwhile wait and go together as one statement (`= ANY($1)`) when a slot frees: one
// request alone is never delayed, a thousand at once cost a handful of statements. Nothing is cached: every lookup
// is answered by a statement sent after it was asked, so a revocation committed before a verify arrived (by any
// instance) is always seen — the "at once" of API.md §1 holds.
import { arrayLiteral, type Queryable } from './postgres-sql.js';

/** Hashes per statement at most: the statement stays small whatever the load. */
const MAX_BATCH = 256;

interface Lookup {
  readonly tokenHash: string;
  resolve(revoked: boolean): void;
  reject(error: unknown): void;
}

export class RevocationLookups {
  private inFlight = 0;
  private waiting: Lookup[] = [];

  /** `slots`: statements in flight at once; the rest of the pool stays free for every other statement. */
  constructor(
    private readonly db: Queryable,
    private readonly slots: number,
  ) {}

  isRevoked(tokenHash: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ tokenHash, resolve, reject });
      this.send();
    });
  }

  private send(): void {
    while (this.inFlight < this.slots && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.answer(batch).finally(() => {
        this.inFlight--;
        this.send();
      });
    }
  }

  private async answer(batch: readonly Lookup[]): Promise<void> {
    try {
      const rows =
        batch.length === 1
          ? await this.db.query<{ token_hash: string }>(
              'SELECT token_hash FROM revocations WHERE token_hash = $1',
              [batch[0]!.tokenHash],
            )
          : await this.db.query<{ token_hash: string }>(
              'SELECT token_hash FROM revocations WHERE token_hash = ANY($1::text[])',
              [arrayLiteral(batch.map((lookup) => lookup.tokenHash))],
            );
      const revoked = new Set(rows.map((row) => row.token_hash));
      for (const lookup of batch) lookup.resolve(revoked.has(lookup.tokenHash));
    } catch (error) {
      for (const lookup of batch) lookup.reject(error);
    }
  }
}
