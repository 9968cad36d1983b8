import type { Database } from 'better-sqlite3';
import type { NewJob } from '../../../application/ports/job-queue.js';

/** Prepares the one way a job enters the queue, shared by the queue and the transactional outboxes. */
export function prepareJobInsert(db: Database): (job: NewJob, now: Date) => void {
  const insert = db.prepare<[string, string, string | null, number, number]>(
    'INSERT INTO jobs (kind, payload, lane, queued_at, run_at) VALUES (?, ?, ?, ?, ?)',
  );
  return (job, now) => {
    insert.run(job.kind, JSON.stringify(job.payload ?? null), job.lane ?? null, now.getTime(), now.getTime());
  };
}
