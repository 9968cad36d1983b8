import type { ObjectId } from 'mongodb';
import type { QueuedJob } from '../../stored-records.js';
import type { MongoCodec, OlderDocument } from '../mongo-codec.js';

export interface JobDocument {
  /** Made by the writer (an ObjectId grows in the order one process queues): the tie-break among jobs due at once. */
  _id: ObjectId;
  kind: string;
  /** JSON text, so that the payload comes back exactly as the other stores give it back. */
  payload: string;
  lane: string | null;
  attempts: number;
  queuedAt: Date;
  runAt: Date;
  state: 'pending' | 'abandoned';
  leaseId: string | null;
  leaseUntil: Date | null;
  lastError: string | null;
  /** See NewJob.replaceKey; absent when the job has none (the unique index covers pending jobs that have one). */
  replaceKey?: string;
}

/** As stored: jobs queued before lanes existed have no `lane`. */
export type StoredJobDocument = OlderDocument<JobDocument, 'lane'>;

/** A job's document, not leased; `replaceKey` left out when there is none, so the partial unique index skips it. */
export const JOB_DOCUMENTS: MongoCodec<QueuedJob, Omit<JobDocument, '_id'>, StoredJobDocument> = {
  toDocument: (job) => ({
    kind: job.kind,
    payload: job.payload,
    lane: job.lane,
    attempts: job.attempts,
    queuedAt: job.queuedAt,
    runAt: job.runAt,
    state: job.state,
    leaseId: null,
    leaseUntil: null,
    lastError: job.lastError,
    ...(job.replaceKey ? { replaceKey: job.replaceKey } : {}),
  }),
  fromDocument: (doc) => ({
    kind: doc.kind,
    payload: doc.payload,
    lane: doc.lane ?? null,
    state: doc.state,
    attempts: doc.attempts,
    queuedAt: doc.queuedAt,
    runAt: doc.runAt,
    lastError: doc.lastError,
    replaceKey: doc.replaceKey ?? null,
  }),
};
