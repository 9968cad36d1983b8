import type { RevocationStore } from '../../../application/ports/revocation-store.js';
import { revocationNoticeJob } from '../../../domain/jobs.js';
import type { Revocation } from '../../../domain/revocation.js';
import { REVOCATION_ROWS } from './codecs/token-rows.js';
import { columnArrays, insertManySql } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { insertJobs } from './postgres-job-insert.js';
import { named, type Queryable } from './postgres-sql.js';
import { deleteExpiredRows } from './postgres-expiry.js';
import { RevocationLookups } from './postgres-revocation-lookups.js';

/** Records that exist already are left alone: RETURNING names the new ones only. */
const INSERT_NEW = named<Record<string, string>>(
  insertManySql(REVOCATION_ROWS, 'ON CONFLICT (token_hash) DO NOTHING RETURNING token_hash'),
);

/**
 * The one way revocations are written, inside the caller's transaction: a record per token, and — the transactional
 * outbox — a notice job exactly when its record is new. Two statements whatever their number. Returns how many
 * were new.
 */
export async function writeRevocations(
  tx: Queryable,
  revocations: readonly Revocation[],
  now: Date,
): Promise<number> {
  // One record per token: the first of a repeated token is the one written (as one insert after the other).
  const firsts = revocations.filter(
    (r, i) => revocations.findIndex((o) => o.record.tokenHash === r.record.tokenHash) === i,
  );
  if (firsts.length === 0) return 0;
  const rows = firsts.map(({ record }) => REVOCATION_ROWS.toRow({ ...record, revokedAt: now }));
  const added = new Set(
    (await INSERT_NEW.run<{ token_hash: string }>(tx, columnArrays(REVOCATION_ROWS, rows))).map(
      (row) => row.token_hash,
    ),
  );
  const notices = firsts.flatMap(({ record, notice }) =>
    notice && added.has(record.tokenHash) ? [revocationNoticeJob(notice)] : [],
  );
  await insertJobs(tx, notices, now);
  return added.size;
}

export class PostgresRevocationStore implements RevocationStore {
  private readonly lookups: RevocationLookups;

  constructor(private readonly db: PostgresDatabase) {
    // Half the pool at most for verify's lookups, so that writes and the rest always find a connection.
    this.lookups = new RevocationLookups(db, Math.max(1, Math.floor(db.instruments.pool().size / 2)));
  }

  async revoke(revocations: readonly Revocation[], now: Date): Promise<number> {
    return this.db.transaction((tx) => writeRevocations(tx, revocations, now));
  }

  isRevoked(tokenHash: string): Promise<boolean> {
    return this.lookups.isRevoked(tokenHash);
  }

  /** Safe on every instance at once: a row another instance deleted meanwhile is skipped, not counted twice. */
  async deleteExpired(now: Date): Promise<number> {
    return deleteExpiredRows(this.db, 'revocations', 'token_hash', now);
  }
}
