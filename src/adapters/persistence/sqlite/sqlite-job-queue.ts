import type { Database, Statement, Transaction } from 'better-sqlite3';
import type {
  ClaimRequest,
  Job,
  JobQueue,
  KindStatistics,
  ListedJob,
  NewJob,
} from '../../../application/ports/job-queue.js';

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
import { CoalescedWrites } from './coalesced-writes.js';
import { prepareJobInsert } from './job-insert.js';
import { storeCall } from './sqlite-errors.js';

/** A due job found by a claim, before it is read whole. */
interface Candidate {
  id: number;
  run_at: number;
}

interface JobRow {
  id: number;
  kind: string;
  payload: string;
  lane: string | null;
  attempts: number;
  queued_at: number;
}

export class SqliteJobQueue implements JobQueue {
  private readonly enqueueAll: Transaction<(jobs: readonly NewJob[], now: Date) => void>;
  private readonly claimDue: Transaction<(input: ClaimRequest) => Job[]>;
  private readonly postpone: Statement<{ lane: string; until: number; now: number }>;
  private readonly deleteLeased: Statement<{ id: number; lease_id: string }>;
  private readonly retryLeased: Statement<{ id: number; lease_id: string; run_at: number; error: string }>;
  private readonly abandonLeased: Statement<{ id: number; lease_id: string; error: string }>;
  private readonly countByState: Statement<[], { pending: number | null; abandoned: number | null }>;
  private readonly countByKind: Statement<
    [],
    { kind: string; pending: number; abandoned: number; oldest: number | null }
  >;
  /** Outcomes of jobs (complete, reschedule, abandon) arrive one by one; they are committed together. */
  private readonly outcomes: CoalescedWrites;

  constructor(private readonly db: Database) {
    this.outcomes = new CoalescedWrites(db);
    const insert = prepareJobInsert(db);
    // A claim takes the first due job of each lane (a loose index scan over the distinct pending lanes, then one
    // seek per lane) and the due jobs without a lane, so it costs the number of lanes, not the number of jobs: a
    // backlog of thousands for one host, or hundreds of backed-off hosts, does not slow it down.
    const due = '(lease_until IS NULL OR lease_until <= @now) AND run_at <= @now';
    const selectFirstPerLane = db.prepare<{ now: number; skip: string }, Candidate>(`
      WITH RECURSIVE lanes(lane) AS (
        SELECT MIN(lane) FROM jobs INDEXED BY jobs_pending_by_lane WHERE state = 'pending' AND lane IS NOT NULL
        UNION ALL
        SELECT (
          SELECT MIN(lane) FROM jobs INDEXED BY jobs_pending_by_lane WHERE state = 'pending' AND lane > lanes.lane
        ) FROM lanes WHERE lanes.lane IS NOT NULL
      )
      SELECT first.id, first.run_at FROM lanes JOIN jobs AS first ON first.id = (
        SELECT id FROM jobs INDEXED BY jobs_pending_by_lane WHERE state = 'pending' AND lane = lanes.lane AND ${due}
        ORDER BY run_at, id LIMIT 1)
      WHERE lanes.lane IS NOT NULL AND lanes.lane NOT IN (SELECT value FROM json_each(@skip))`);
    // With `onlyLanes`, those lanes are sought directly instead of scanning every pending lane.
    const selectFirstOfLanes = db.prepare<{ now: number; only: string; skip: string }, Candidate>(`
      SELECT first.id, first.run_at FROM json_each(@only) AS lanes JOIN jobs AS first ON first.id = (
        SELECT id FROM jobs INDEXED BY jobs_pending_by_lane WHERE state = 'pending' AND lane = lanes.value AND ${due}
        ORDER BY run_at, id LIMIT 1)
      WHERE lanes.value NOT IN (SELECT value FROM json_each(@skip))`);
    const selectWithoutLane = db.prepare<{ now: number; limit: number }, Candidate>(`
      SELECT id, run_at FROM jobs INDEXED BY jobs_pending_without_lane
      WHERE state = 'pending' AND lane IS NULL AND ${due} ORDER BY run_at, id LIMIT @limit`);
    const selectById = db.prepare<[number], JobRow>(
      'SELECT id, kind, payload, lane, attempts, queued_at FROM jobs WHERE id = ?',
    );
    const lease = db.prepare<[string, number, number]>(
      'UPDATE jobs SET lease_id = ?, lease_until = ? WHERE id = ?',
    );
    const leasedBy = "id = @id AND lease_id = @lease_id AND state = 'pending'";
    this.deleteLeased = db.prepare(`DELETE FROM jobs WHERE ${leasedBy}`);
    this.retryLeased = db.prepare(`
      UPDATE jobs SET attempts = attempts + 1, run_at = @run_at, lease_id = NULL, lease_until = NULL,
        last_error = @error
      WHERE ${leasedBy}`);
    this.abandonLeased = db.prepare(`
      UPDATE jobs SET state = 'abandoned', lease_id = NULL, lease_until = NULL, last_error = @error
      WHERE ${leasedBy}`);
    this.postpone = db.prepare(`
      UPDATE jobs SET run_at = @until
      WHERE lane = @lane AND state = 'pending' AND run_at < @until
        AND (lease_until IS NULL OR lease_until <= @now)`);
    this.countByKind = db.prepare(`
      SELECT kind, SUM(state = 'pending') AS pending, SUM(state = 'abandoned') AS abandoned,
        MIN(CASE WHEN state = 'pending' THEN queued_at END) AS oldest
      FROM jobs GROUP BY kind ORDER BY kind`);
    this.countByState = db.prepare(`
      SELECT SUM(state = 'pending') AS pending, SUM(state = 'abandoned') AS abandoned FROM jobs`);

    this.enqueueAll = db.transaction((jobs: readonly NewJob[], now: Date) => {
      for (const job of jobs) insert(job, now);
    });
    // Selecting and leasing under one write lock is what keeps two processes from claiming one job.
    this.claimDue = db.transaction(
      ({ now, leaseMs, limit, leaseId, skipLanes = [], onlyLanes }: ClaimRequest) => {
        const at = now.getTime();
        const skip = JSON.stringify(skipLanes);
        const ids = [
          ...(onlyLanes
            ? selectFirstOfLanes.all({ now: at, only: JSON.stringify([...new Set(onlyLanes)]), skip })
            : selectFirstPerLane.all({ now: at, skip })),
          ...selectWithoutLane.all({ now: at, limit }),
        ];
        const rows = ids
          .sort((a, b) => a.run_at - b.run_at || a.id - b.id)
          .slice(0, limit)
          .map((candidate) => selectById.get(candidate.id)!);
        for (const row of rows) lease.run(leaseId, now.getTime() + leaseMs, row.id);
        return rows.map((row) => ({
          id: String(row.id),
          kind: row.kind,
          payload: JSON.parse(row.payload) as unknown,
          lane: row.lane,
          attempts: row.attempts,
          queuedAt: new Date(row.queued_at),
          leaseId,
        }));
      },
    );
  }

  async enqueue(jobs: readonly NewJob[], now: Date): Promise<void> {
    if (jobs.length > 0) storeCall(() => this.enqueueAll.immediate(jobs, now));
  }

  async claim(input: ClaimRequest): Promise<Job[]> {
    if (input.limit <= 0) return [];
    return storeCall(() => this.claimDue.immediate(input));
  }

  async complete(job: Job): Promise<boolean> {
    return this.changedOne(() => this.deleteLeased.run(leaseOf(job)));
  }

  async reschedule(job: Job, runAt: Date, error: string): Promise<boolean> {
    return this.changedOne(() => this.retryLeased.run({ ...leaseOf(job), run_at: runAt.getTime(), error }));
  }

  async abandon(job: Job, error: string): Promise<boolean> {
    return this.changedOne(() => this.abandonLeased.run({ ...leaseOf(job), error }));
  }

  async postponeLane(lane: string, until: Date, now: Date): Promise<number> {
    return storeCall(() => this.postpone.run({ lane, until: until.getTime(), now: now.getTime() })).changes;
  }

  async list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]> {
    const rows = storeCall(() =>
      this.db
        .prepare<{ kind: string | null; limit: number }, JobListRow>(
          `SELECT id, kind, state, lane, attempts, queued_at, run_at, lease_until, last_error FROM jobs
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
    const at = now.getTime();
    return storeCall(
      () =>
        this.db
          .prepare(
            `UPDATE jobs SET state = 'pending', attempts = 0, queued_at = @at, run_at = @at, lease_id = NULL,
               lease_until = NULL
             WHERE state = 'abandoned' AND (@kind IS NULL OR kind = @kind)`,
          )
          .run({ kind, at }).changes,
    );
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

  async stats(): Promise<{ pending: number; abandoned: number }> {
    const row = storeCall(() => this.countByState.get());
    return { pending: row?.pending ?? 0, abandoned: row?.abandoned ?? 0 };
  }

  private async changedOne(write: () => { changes: number }): Promise<boolean> {
    return (await this.outcomes.run(() => write().changes)) === 1;
  }
}

/** A job id this queue never handed out matches no row: -1 is not a valid AUTOINCREMENT id. */
function leaseOf(job: Job): { id: number; lease_id: string } {
  const id = Number(job.id);
  return { id: Number.isSafeInteger(id) ? id : -1, lease_id: job.leaseId };
}
