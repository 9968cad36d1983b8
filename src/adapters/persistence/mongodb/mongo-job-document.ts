import { ObjectId } from 'mongodb';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { JobDocument } from './mongo-schema.js';

/**
 * The one way a job enters the queue, shared by the queue and the transactional outboxes. The payload is stored as JSON
 * text (Dates become strings, `undefined` null), as the other stores keep it. Ids are ObjectIds made here, so they
 * grow in the order this process queues jobs: the tie-break among jobs due at the same time.
 */
export function jobDocument(job: NewJob, now: Date): JobDocument {
  return {
    _id: new ObjectId(),
    kind: job.kind,
    payload: JSON.stringify(job.payload ?? null),
    lane: job.lane ?? null,
    attempts: 0,
    queuedAt: now,
    runAt: now,
    state: 'pending',
    leaseId: null,
    leaseUntil: null,
    lastError: null,
  };
}
