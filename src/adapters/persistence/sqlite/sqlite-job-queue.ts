import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { ClaimRequest, Job, JobQueue, NewJob } from '../../../application/ports/job-queue.js';
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

/** The worker's queue; SqliteQueueAdministration reads and repairs the same table. */
export class SqliteJobQueue implements JobQueue {
  private readonly enqueueAll: Transaction<(jobs: readonly NewJob[], now: Date) => void>;
  private readonly claimDue: Transaction<(input: ClaimRequest) => Job[]>;
  private readonly postpone: Statement<{ lane: string; until: number }>;
  private readonly forgetBackoffs: Statement<[number]>;
  private readonly deleteLeased: Statement<{ id: number; lease_id: string }>;
  private readonly retryLeased: Statement<{ id: number; lease_id: string; run_at: number; error: string }>;
  private readonly abandonLeased: Statement<{ id: number; lease_id: string; error: string }>;
  /** Outcomes of jobs (complete, reschedule, abandon) arrive one by one; they are committed together. */
  private readonly outcomes: CoalescedWrites;

  constructor(private readonly db: Database) {
    this.outcomes = new CoalescedWrites(db);
    const insert = prepareJobInsert(db);
    // A claim takes the first due job of each lane (a loose index scan over the distinct pending lanes, then one
    // seek per lane) and the due jobs without a lane, so it costs the number of lanes, not the number of jobs: a
    // backlog of thousands for one host, or hundreds of backed-off hosts, does not slow it down. A lane backed off
    // is one row of lane_backoffs, looked up by its key.
    const due = '(lease_until IS NULL OR lease_until <= @now) AND run_at <= @now';
    const open = (lane: string) =>
      `${lane} NOT IN (SELECT value FROM json_each(@skip))
       AND NOT EXISTS (SELECT 1 FROM lane_backoffs WHERE lane_backoffs.lane = ${lane} AND until > @now)`;
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
      WHERE lanes.lane IS NOT NULL AND ${open('lanes.lane')}`);
    // With `onlyLanes`, those lanes are sought directly instead of scanning every pending lane.
    const selectFirstOfLanes = db.prepare<{ now: number; only: string; skip: string }, Candidate>(`
      SELECT first.id, first.run_at FROM json_each(@only) AS lanes JOIN jobs AS first ON first.id = (
        SELECT id FROM jobs INDEXED BY jobs_pending_by_lane WHERE state = 'pending' AND lane = lanes.value AND ${due}
        ORDER BY run_at, id LIMIT 1)
      WHERE ${open('lanes.value')}`);
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
    // One row per lane, whatever its backlog; MAX: a later back-off extends it, an earlier one never shortens it.
    this.postpone = db.prepare(`
      INSERT INTO lane_backoffs (lane, until) VALUES (@lane, @until)
      ON CONFLICT (lane) DO UPDATE SET until = MAX(until, excluded.until)`);
    this.forgetBackoffs = db.prepare('DELETE FROM lane_backoffs WHERE until <= ?');

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

  async postponeLane(lane: string, until: Date, now: Date): Promise<void> {
    await this.outcomes.run(() => {
      // Back-offs already over change no claim: forgetting them keeps the table to the lanes failing now.
      this.forgetBackoffs.run(now.getTime());
      return this.postpone.run({ lane, until: until.getTime() }).changes;
    });
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
