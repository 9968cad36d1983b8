import type { QueuedJob } from '../../stored-records.js';
import { postgresTable } from '../postgres-codec.js';

/** A job as one row of `jobs`; its `id` (an identity column) and lease are the queue's own. */
export const JOB_ROWS = postgresTable(
  'jobs',
  {
    kind: 'text',
    /** JSON text. */
    payload: 'text',
    lane: 'text?',
    state: 'text',
    attempts: 'integer',
    queued_at: 'timestamptz',
    run_at: 'timestamptz',
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
    queued_at: job.queuedAt,
    run_at: job.runAt,
    last_error: job.lastError,
    replace_key: job.replaceKey,
  }),
  fromRow: (row) => ({
    kind: row.kind,
    payload: row.payload,
    lane: row.lane,
    state: row.state as QueuedJob['state'],
    attempts: row.attempts,
    queuedAt: row.queued_at,
    runAt: row.run_at,
    lastError: row.last_error,
    replaceKey: row.replace_key,
  }),
});
