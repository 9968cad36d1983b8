import type { QueuedJob } from '../../stored-records.js';
import { sqliteTable } from '../sqlite-codec.js';

/** A job as one row of `jobs`; its `id` (AUTOINCREMENT) and lease are the queue's own. */
export const JOB_ROWS = sqliteTable(
  'jobs',
  {
    kind: 'text',
    /** JSON text. */
    payload: 'text',
    lane: 'text?',
    state: 'text',
    attempts: 'integer',
    queued_at: 'integer',
    run_at: 'integer',
    last_error: 'text?',
    replace_key: 'text?',
  },
  ['id', 'lease_id', 'lease_until'],
).codec<QueuedJob>({
  toRow: (job) => ({
    kind: job.kind,
    payload: job.payload,
    lane: job.lane,
    state: job.state,
    attempts: job.attempts,
    queued_at: job.queuedAt.getTime(),
    run_at: job.runAt.getTime(),
    last_error: job.lastError,
    replace_key: job.replaceKey,
  }),
  fromRow: (row) => ({
    kind: row.kind,
    payload: row.payload,
    lane: row.lane,
    state: row.state as QueuedJob['state'],
    attempts: row.attempts,
    queuedAt: new Date(row.queued_at),
    runAt: new Date(row.run_at),
    lastError: row.last_error,
    replaceKey: row.replace_key,
  }),
});
