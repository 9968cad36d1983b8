import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { RevocationStore } from '../../../application/ports/revocation-store.js';
import { revocationNoticeJob } from '../../../domain/jobs.js';
import type { Revocation } from '../../../domain/revocation.js';
import { REVOCATION_ROWS } from './codecs/token-rows.js';
import { prepareJobInsert } from './job-insert.js';
import { insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';

/**
 * Prepares the one way revocations are written (to run inside a transaction): a record per token, and — the
 * transactional outbox — a notice job exactly when its record is new. Returns how many were new.
 */
export function prepareRevocationWrite(
  db: Database,
): (revocations: readonly Revocation[], now: Date) => number {
  const insert = db.prepare<[RowOf<typeof REVOCATION_ROWS.columns>]>(
    insertSql(REVOCATION_ROWS, '', 'INSERT OR IGNORE'),
  );
  const insertJob = prepareJobInsert(db);
  return (revocations, now) => {
    let added = 0;
    for (const { record, notice } of revocations) {
      const { changes } = insert.run(REVOCATION_ROWS.toRow({ ...record, revokedAt: now }));
      if (changes !== 1) continue;
      added++;
      if (notice) insertJob(revocationNoticeJob(notice), now);
    }
    return added;
  };
}

export class SqliteRevocationStore implements RevocationStore {
  private readonly lookup: Statement<[string], unknown>;
  private readonly deleteBefore: Statement<[number]>;
  private readonly revokeAll: Transaction<(revocations: readonly Revocation[], now: Date) => number>;

  constructor(db: Database) {
    this.lookup = db.prepare('SELECT 1 FROM revocations WHERE token_hash = ?');
    this.deleteBefore = db.prepare('DELETE FROM revocations WHERE expires_at < ?');
    this.revokeAll = db.transaction(prepareRevocationWrite(db));
  }

  async revoke(revocations: readonly Revocation[], now: Date): Promise<number> {
    return storeCall(() => this.revokeAll.immediate(revocations, now));
  }

  async isRevoked(tokenHash: string): Promise<boolean> {
    return storeCall(() => this.lookup.get(tokenHash)) !== undefined;
  }

  async deleteExpired(now: Date): Promise<number> {
    return storeCall(() => this.deleteBefore.run(now.getTime())).changes;
  }
}
