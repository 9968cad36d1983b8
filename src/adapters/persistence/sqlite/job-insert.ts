import type { Database } from 'better-sqlite3';
import type { NewJob } from '../../../application/ports/job-queue.js';
import { queuedJob } from '../stored-records.js';
import { JOB_ROWS } from './codecs/job-rows.js';
import { assignments, insertSql, type RowOf } from './sqlite-codec.js';

/** A new job's row; on a pending job holding its key, that row takes every column of the new one, its lease gone. */
const INSERT_JOB_SQL = insertSql(
  JOB_ROWS,
  `ON CONFLICT (replace_key) WHERE state = 'pending' AND replace_key IS NOT NULL DO UPDATE SET
    ${assignments(JOB_ROWS, ['replace_key', 'state'], 'excluded.')}, lease_id = NULL, lease_until = NULL`,
);

/**
 * Prepares the one way a job enters the queue, shared by the queue and the transactional outboxes. A job whose
 * `replaceKey` a pending job holds replaces that row in place (its id, and so its place among equals, stays): the
 * partial unique index `jobs_pending_by_replace_key` is both the rule and the conflict the upsert resolves.
 */
export function prepareJobInsert(db: Database): (job: NewJob, now: Date) => void {
  const insert = db.prepare<[RowOf<typeof JOB_ROWS.columns>]>(INSERT_JOB_SQL);
  return (job, now) => {
    insert.run(JOB_ROWS.toRow(queuedJob(job, now)));
  };
}

/** How many pending jobs of a kind wait in a lane, counting at most the limit (lane, kind, limit). */
export const PENDING_IN_LANE_SQL = `
  SELECT COUNT(*) AS n FROM (
    SELECT 1 FROM jobs INDEXED BY jobs_pending_by_lane_kind
    WHERE lane IS ? AND kind = ? AND state = 'pending' LIMIT ?)`;

/**
 * Prepares the check of a job against a cap on its lane: whether it would be a new row (no pending job holds its
 * key) while `max` pending jobs of its kind already wait in its lane. Counts at most `max` entries of
 * `jobs_pending_by_lane_kind`, so the check costs the cap at worst, never the lane's whole backlog.
 */
export function prepareLaneFullCheck(db: Database): (job: NewJob, max: number) => boolean {
  const held = db.prepare<[string]>(
    "SELECT 1 FROM jobs WHERE replace_key = ? AND state = 'pending' AND replace_key IS NOT NULL",
  );
  const count = db.prepare<[string | null, string, number], { n: number }>(PENDING_IN_LANE_SQL);
  return (job, max) => {
    if (job.replaceKey && held.get(job.replaceKey) !== undefined) return false;
    return (count.get(job.lane ?? null, job.kind, max)?.n ?? 0) >= max;
  };
}
