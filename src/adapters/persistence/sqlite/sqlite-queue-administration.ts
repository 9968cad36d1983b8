import type { Database, Statement, Transaction } from 'better-sqlite3';
import type {
  KindStatistics,
  ListedJob,
  QueueAdministration,
  QueueTotals,
} from '../../../application/ports/queue-administration.js';
import { storeCall } from './sqlite-errors.js';

interface JobListRow {
  id: number;
  kind: string;
  state: 'pending' | 'abandoned';
  lane: string | null;
  attempts: number;
  queued_at: number;
  run_at: number;
  lease_until: number | null;
  last_error: string | null;
}

/** An operator's view of the jobs SqliteJobQueue holds: counts, listing, retry and drop. */
export class SqliteQueueAdministration implements QueueAdministration {
  private readonly retryAll: Transaction<(kind: string | null, at: number) => number>;
  private readonly countByState: Statement<[], { pending: number | null; abandoned: number | null }>;
  private readonly countByKind: Statement<
    [],
    { kind: string; pending: number; abandoned: number; oldest: number | null }
  >;

  constructor(private readonly db: Database) {
    this.retryAll = this.prepareRetry();
    this.countByKind = db.prepare(`
      SELECT kind, SUM(state = 'pending') AS pending, SUM(state = 'abandoned') AS abandoned,
        MIN(CASE WHEN state = 'pending' THEN queued_at END) AS oldest
      FROM jobs GROUP BY kind ORDER BY kind`);
    this.countByState = db.prepare(`
      SELECT SUM(state = 'pending') AS pending, SUM(state = 'abandoned') AS abandoned FROM jobs`);
  }

  async list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]> {
    const rows = storeCall(() =>
      this.db
        .prepare<{ kind: string | null; limit: number }, JobListRow>(
          `SELECT id, kind, state, jobs.lane, attempts, queued_at, MAX(run_at, COALESCE(b.until, 0)) AS run_at,
             lease_until, last_error
           FROM jobs LEFT JOIN lane_backoffs AS b ON b.lane = jobs.lane
           WHERE @kind IS NULL OR kind = @kind ORDER BY id LIMIT @limit`,
        )
        .all(filter),
    );
    return rows.map((row) => ({
      id: String(row.id),
      kind: row.kind,
      state: row.state,
      lane: row.lane,
      attempts: row.attempts,
      queuedAt: new Date(row.queued_at),
      runAt: new Date(row.run_at),
      leased: row.state === 'pending' && row.lease_until !== null && row.lease_until > now.getTime(),
      lastError: row.last_error,
    }));
  }

  async retryAbandoned(kind: string | null, now: Date): Promise<number> {
    return storeCall(() => this.retryAll.immediate(kind, now.getTime()));
  }

  /**
   * Abandoned jobs back to pending in one transaction: those without a key at once; of those sharing a key, the
   * newest only, and only while no pending job holds the key (the unique index would refuse a second).
   */
  private prepareRetry(): Transaction<(kind: string | null, at: number) => number> {
    const back = `state = 'pending', attempts = 0, queued_at = @at, run_at = @at, lease_id = NULL, lease_until = NULL`;
    const unkeyed = this.db.prepare<{ kind: string | null; at: number }>(`
      UPDATE jobs SET ${back}
      WHERE state = 'abandoned' AND (@kind IS NULL OR kind = @kind) AND replace_key IS NULL`);
    const keyed = this.db.prepare<{ kind: string | null }, { id: number; replace_key: string }>(`
      SELECT id, replace_key FROM jobs
      WHERE state = 'abandoned' AND (@kind IS NULL OR kind = @kind) AND replace_key IS NOT NULL ORDER BY id DESC`);
    const held = this.db.prepare<[string]>(
      "SELECT 1 FROM jobs WHERE replace_key = ? AND state = 'pending' AND replace_key IS NOT NULL",
    );
    const one = this.db.prepare<{ id: number; at: number }>(`UPDATE jobs SET ${back} WHERE id = @id`);
    return this.db.transaction((kind: string | null, at: number) => {
      let retried = unkeyed.run({ kind, at }).changes;
      const seen = new Set<string>();
      for (const row of keyed.all({ kind })) {
        if (seen.has(row.replace_key)) continue;
        seen.add(row.replace_key);
        if (held.get(row.replace_key) !== undefined) continue;
        retried += one.run({ id: row.id, at }).changes;
      }
      return retried;
    });
  }

  async dropAbandoned(kind: string | null): Promise<number> {
    return storeCall(
      () =>
        this.db
          .prepare("DELETE FROM jobs WHERE state = 'abandoned' AND (@kind IS NULL OR kind = @kind)")
          .run({ kind }).changes,
    );
  }

  async statsByKind(): Promise<KindStatistics[]> {
    const rows = storeCall(() => this.countByKind.all());
    return rows.map((row) => ({
      kind: row.kind,
      pending: row.pending,
      abandoned: row.abandoned,
      oldestPendingQueuedAt: row.oldest === null ? null : new Date(row.oldest),
    }));
  }

  async stats(): Promise<QueueTotals> {
    const row = storeCall(() => this.countByState.get());
    return { pending: row?.pending ?? 0, abandoned: row?.abandoned ?? 0 };
  }
}
