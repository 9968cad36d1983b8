import type { NewJob } from '../../../application/ports/job-queue.js';
import { queuedJob } from '../stored-records.js';
import { JOB_ROWS } from './codecs/job-rows.js';
import { assignments, columnArrays, insertManySql, insertSql, type RowOf } from './postgres-codec.js';
import { named, type Queryable } from './postgres-sql.js';

type JobRow = RowOf<typeof JOB_ROWS.columns>;

/** On a pending job holding the new one's key, that row takes every column of the new one, its lease gone. */
const REPLACING = `ON CONFLICT (replace_key) WHERE state = 'pending' AND replace_key IS NOT NULL DO UPDATE SET
  ${assignments(JOB_ROWS, ['replace_key', 'state'], 'excluded.')}, lease_id = NULL, lease_until = NULL`;

const INSERT_ONE = named<JobRow>(insertSql(JOB_ROWS, REPLACING));
const INSERT_MANY = named<Record<string, string>>(insertManySql(JOB_ROWS, REPLACING));

/**
 * Jobs sharing a key in one call: the later replaces the earlier in its place, as one insert after the other would
 * (and one statement may not upsert a row twice).
 */
function distinctKeys(jobs: readonly NewJob[]): NewJob[] {
  const out: NewJob[] = [];
  const at = new Map<string, number>();
  for (const job of jobs) {
    const key = job.replaceKey ?? null;
    const earlier = key === null ? undefined : at.get(key);
    if (earlier !== undefined) out[earlier] = job;
    else {
      if (key !== null) at.set(key, out.length);
      out.push(job);
    }
  }
  return out;
}

/**
 * The one way jobs enter the queue, shared by the queue and the transactional outboxes (inside their transactions):
 * one statement for any number of jobs. A job whose `replaceKey` a pending job holds replaces that row in place (its
 * id, and so its place among equals, stays): the partial unique index `jobs_pending_by_replace_key` is both the rule
 * and the conflict the upsert resolves.
 */
export async function insertJobs(db: Queryable, jobs: readonly NewJob[], now: Date): Promise<void> {
  const rows = distinctKeys(jobs).map((job) => JOB_ROWS.toRow(queuedJob(job, now)));
  const [first] = rows;
  if (first === undefined) return;
  if (rows.length === 1) await INSERT_ONE.run(db, first);
  else await INSERT_MANY.run(db, columnArrays(JOB_ROWS, rows));
}

/** Two lanes' Follows take turns at their lane's cap: this advisory lock (class, hash of the lane) in their transaction. */
const LANE_LOCK_CLASS = 0x4c32;

/**
 * Whether `job` would be a new row (no pending job holds its key) while `max` pending jobs of its kind already wait
 * in its lane. Run inside the transaction that queues it, after taking the lane's lock, so that two Follows cannot
 * both take the last place; counts at most `max` entries of `jobs_pending_by_lane_kind`.
 */
export async function laneFull(db: Queryable, job: NewJob, max: number): Promise<boolean> {
  const lane = job.lane ?? null;
  await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LANE_LOCK_CLASS, lane ?? '']);
  if (job.replaceKey) {
    const held = await db.query(
      "SELECT 1 FROM jobs WHERE replace_key = $1 AND state = 'pending' AND replace_key IS NOT NULL",
      [job.replaceKey],
    );
    if (held.length > 0) return false;
  }
  const inLane = lane === null ? 'lane IS NULL' : 'lane = $3';
  const [row] = await db.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM (
       SELECT 1 FROM jobs WHERE ${inLane} AND kind = $1 AND state = 'pending' LIMIT $2) AS waiting`,
    lane === null ? [job.kind, max] : [job.kind, max, lane],
  );
  return (row?.n ?? 0) >= max;
}
