import type { ClaimRequest, Job, JobQueue, NewJob } from '../../../application/ports/job-queue.js';
import type { PostgresDatabase } from './postgres-database.js';
import { insertJobs } from './postgres-job-insert.js';
import { arrayLiteral, type Queryable } from './postgres-sql.js';

/** A due job a claim found (and locked), before it is leased. */
interface Candidate {
  id: number;
  run_at: Date;
}

interface LeasedRow {
  id: number;
  kind: string;
  payload: string;
  lane: string | null;
  attempts: number;
  queued_at: Date;
  run_at: Date;
}

const DUE = '(lease_until IS NULL OR lease_until <= $1) AND run_at <= $1';
/** A lane handed out now: not skipped by the worker, not backed off. */
const OPEN = (lane: string) =>
  `${lane} <> ALL($2::text[]) AND NOT EXISTS (SELECT 1 FROM lane_backoffs b WHERE b.lane = ${lane} AND b.until > $1)`;
/**
 * The first due job of a lane, locked — FOR UPDATE SKIP LOCKED: a job another instance's claim holds right now is
 * passed over, not waited for, and one it leased is no longer due once its claim commits — so two claims, on any
 * instances, never lease one job.
 */
const FIRST_DUE_OF = (lane: string) => `
  SELECT id, run_at FROM jobs WHERE state = 'pending' AND lane = ${lane} AND ${DUE}
  ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`;

/**
 * The first due job of each pending lane: the distinct lanes found by a loose index scan over jobs_pending_by_lane
 * (one seek per lane, however long each backlog), then one seek per open lane.
 */
const FIRST_PER_LANE = `
  WITH RECURSIVE lanes(lane) AS (
    (SELECT lane FROM jobs WHERE state = 'pending' AND lane IS NOT NULL ORDER BY lane LIMIT 1)
    UNION ALL
    SELECT (SELECT j.lane FROM jobs j WHERE j.state = 'pending' AND j.lane > lanes.lane ORDER BY j.lane LIMIT 1)
    FROM lanes WHERE lanes.lane IS NOT NULL
  )
  SELECT first.id, first.run_at FROM lanes CROSS JOIN LATERAL (${FIRST_DUE_OF('lanes.lane')}) AS first
  WHERE lanes.lane IS NOT NULL AND ${OPEN('lanes.lane')}`;

/** With `onlyLanes`, those lanes are sought directly instead of every pending lane. */
const FIRST_OF_LANES = `
  SELECT first.id, first.run_at FROM unnest($3::text[]) AS lanes(lane)
  CROSS JOIN LATERAL (${FIRST_DUE_OF('lanes.lane')}) AS first
  WHERE ${OPEN('lanes.lane')}`;

const WITHOUT_LANE = `
  SELECT id, run_at FROM jobs WHERE state = 'pending' AND lane IS NULL AND ${DUE}
  ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`;

const LEASE = `
  UPDATE jobs SET lease_id = $1, lease_until = $2 WHERE id = ANY($3::bigint[])
  RETURNING id, kind, payload, lane, attempts, queued_at, run_at`;

const LEASED_BY = "id = $1 AND lease_id = $2 AND state = 'pending'";

/** The worker's queue, shared by every instance; PostgresQueueAdministration reads and repairs the same table. */
export class PostgresJobQueue implements JobQueue {
  constructor(private readonly db: PostgresDatabase) {}

  async enqueue(jobs: readonly NewJob[], now: Date): Promise<void> {
    if (jobs.length > 0) await insertJobs(this.db, jobs, now);
  }

  async claim(request: ClaimRequest): Promise<Job[]> {
    if (request.limit <= 0) return [];
    return this.db.transaction((tx) => this.claimIn(tx, request));
  }

  private async claimIn(tx: Queryable, request: ClaimRequest): Promise<Job[]> {
    const { now, leaseMs, limit, leaseId, skipLanes = [], onlyLanes } = request;
    const skip = arrayLiteral(skipLanes);
    const candidates = [
      ...(onlyLanes
        ? await tx.query<Candidate>(FIRST_OF_LANES, [now, skip, arrayLiteral([...new Set(onlyLanes)])])
        : await tx.query<Candidate>(FIRST_PER_LANE, [now, skip])),
      ...(await tx.query<Candidate>(WITHOUT_LANE, [now, limit])),
    ];
    const chosen = candidates
      .sort((a, b) => a.run_at.getTime() - b.run_at.getTime() || a.id - b.id)
      .slice(0, limit);
    if (chosen.length === 0) return [];
    // The candidates not chosen stay locked only until this transaction ends, a moment from now.
    const rows = await tx.query<LeasedRow>(LEASE, [
      leaseId,
      new Date(now.getTime() + leaseMs),
      arrayLiteral(chosen.map((c) => c.id)),
    ]);
    return [...rows]
      .sort((a, b) => a.run_at.getTime() - b.run_at.getTime() || a.id - b.id)
      .map((row) => ({
        id: String(row.id),
        kind: row.kind,
        payload: JSON.parse(row.payload) as unknown,
        lane: row.lane,
        attempts: row.attempts,
        queuedAt: row.queued_at,
        leaseId,
      }));
  }

  async complete(job: Job): Promise<boolean> {
    return this.changedOne(`DELETE FROM jobs WHERE ${LEASED_BY}`, job);
  }

  async reschedule(job: Job, runAt: Date, error: string): Promise<boolean> {
    return this.changedOne(
      `UPDATE jobs SET attempts = attempts + 1, run_at = $3, lease_id = NULL, lease_until = NULL, last_error = $4
       WHERE ${LEASED_BY}`,
      job,
      [runAt, error],
    );
  }

  async abandon(job: Job, error: string): Promise<boolean> {
    return this.changedOne(
      `UPDATE jobs SET state = 'abandoned', lease_id = NULL, lease_until = NULL, last_error = $3 WHERE ${LEASED_BY}`,
      job,
      [error],
    );
  }

  async postponeLane(lane: string, until: Date, now: Date): Promise<void> {
    // Back-offs already over change no claim: forgetting them keeps the table to the lanes failing now. One row per
    // lane, whatever its backlog; GREATEST: a later back-off extends it, an earlier one never shortens it.
    await this.db.query(
      `WITH forgotten AS (DELETE FROM lane_backoffs WHERE until <= $3 AND lane <> $1)
       INSERT INTO lane_backoffs (lane, until) VALUES ($1, $2)
       ON CONFLICT (lane) DO UPDATE SET until = GREATEST(lane_backoffs.until, EXCLUDED.until)`,
      [lane, until, now],
    );
  }

  private async changedOne(text: string, job: Job, more: unknown[] = []): Promise<boolean> {
    const { count } = await this.db.query(text, [...leaseOf(job), ...more]);
    return count === 1;
  }
}

/** A job id this queue never handed out matches no row: -1 is not an identity value. */
function leaseOf(job: Job): [number, string] {
  const id = Number(job.id);
  return [Number.isSafeInteger(id) ? id : -1, job.leaseId];
}
