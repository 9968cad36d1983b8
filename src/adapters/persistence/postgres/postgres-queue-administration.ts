import type {
  KindStatistics,
  ListedJob,
  QueueAdministration,
  QueueTotals,
} from '../../../application/ports/queue-administration.js';
import type { PostgresDatabase } from './postgres-database.js';

interface JobListRow {
  id: number;
  kind: string;
  state: 'pending' | 'abandoned';
  lane: string | null;
  attempts: number;
  queued_at: Date;
  run_at: Date;
  lease_until: Date | null;
  last_error: string | null;
}

/** Back in the queue, due now, as if just queued (its attempts from 0, its last error kept). */
const BACK = `state = 'pending', attempts = 0, queued_at = $1, run_at = $1, lease_id = NULL, lease_until = NULL`;
const OF_KIND = '($2::text IS NULL OR kind = $2)';

/** An operator's view of the jobs PostgresJobQueue holds: counts, listing, retry and drop. */
export class PostgresQueueAdministration implements QueueAdministration {
  constructor(private readonly db: PostgresDatabase) {}

  async list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]> {
    const rows = await this.db.query<JobListRow>(
      `SELECT id, kind, state, jobs.lane, attempts, queued_at, GREATEST(run_at, b.until) AS run_at,
         lease_until, last_error
       FROM jobs LEFT JOIN lane_backoffs AS b ON b.lane = jobs.lane
       WHERE $1::text IS NULL OR kind = $1 ORDER BY id LIMIT $2`,
      [filter.kind, Math.max(0, filter.limit)],
    );
    return rows.map((row) => ({
      id: String(row.id),
      kind: row.kind,
      state: row.state,
      lane: row.lane,
      attempts: row.attempts,
      queuedAt: row.queued_at,
      runAt: row.run_at,
      leased: row.state === 'pending' && row.lease_until !== null && row.lease_until > now,
      lastError: row.last_error,
    }));
  }

  /**
   * Abandoned jobs back to pending in one transaction: those without a key at once; of those sharing a key, the
   * newest only, and only while no pending job holds the key (the unique index would refuse a second).
   */
  async retryAbandoned(kind: string | null, now: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const unkeyed = await tx.query(
        `UPDATE jobs SET ${BACK} WHERE state = 'abandoned' AND ${OF_KIND} AND replace_key IS NULL`,
        [now, kind],
      );
      const keyed = await tx.query(
        `UPDATE jobs SET ${BACK} WHERE id IN (
           SELECT DISTINCT ON (replace_key) id FROM jobs
           WHERE state = 'abandoned' AND ${OF_KIND} AND replace_key IS NOT NULL
           ORDER BY replace_key, id DESC)
         AND NOT EXISTS (
           SELECT 1 FROM jobs AS held WHERE held.replace_key = jobs.replace_key AND held.state = 'pending')`,
        [now, kind],
      );
      return unkeyed.count + keyed.count;
    });
  }

  async dropAbandoned(kind: string | null): Promise<number> {
    const { count } = await this.db.query(
      "DELETE FROM jobs WHERE state = 'abandoned' AND ($1::text IS NULL OR kind = $1)",
      [kind],
    );
    return count;
  }

  async statsByKind(): Promise<KindStatistics[]> {
    const rows = await this.db.query<{
      kind: string;
      pending: number;
      abandoned: number;
      oldest: Date | null;
    }>(`
      SELECT kind, COUNT(*) FILTER (WHERE state = 'pending') AS pending,
        COUNT(*) FILTER (WHERE state = 'abandoned') AS abandoned,
        MIN(queued_at) FILTER (WHERE state = 'pending') AS oldest
      FROM jobs GROUP BY kind ORDER BY kind`);
    return rows.map((row) => ({
      kind: row.kind,
      pending: row.pending,
      abandoned: row.abandoned,
      oldestPendingQueuedAt: row.oldest,
    }));
  }

  async stats(): Promise<QueueTotals> {
    const [row] = await this.db.query<{ pending: number; abandoned: number }>(`
      SELECT COUNT(*) FILTER (WHERE state = 'pending') AS pending,
        COUNT(*) FILTER (WHERE state = 'abandoned') AS abandoned FROM jobs`);
    return { pending: row?.pending ?? 0, abandoned: row?.abandoned ?? 0 };
  }
}
