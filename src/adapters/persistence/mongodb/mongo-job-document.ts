import { ObjectId, type ClientSession, type Collection, type Filter } from 'mongodb';
import type { NewJob } from '../../../application/ports/job-queue.js';
import { isDuplicateKey } from './mongo-errors.js';
import type { JobDocument } from './mongo-schema.js';

/**
 * The document of a new job. The payload is stored as JSON text (Dates become strings, `undefined` null), as the
 * other stores keep it. Ids are ObjectIds made here, so they grow in the order this process queues jobs: the
 * tie-break among jobs due at the same time. `replaceKey` is left out when there is none, so that the partial unique
 * index (`replaceKey: { $exists: true }`) holds only jobs that have one.
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
    ...(job.replaceKey ? { replaceKey: job.replaceKey } : {}),
  };
}

/**
 * The pending job holding `replaceKey`. Both conditions of the index's partial filter are spelled out, so that the
 * planner can prove the query is within it and use `jobs_pending_by_replace_key`.
 */
export const pendingHolding = (replaceKey: string): Filter<JobDocument> => ({
  state: 'pending',
  replaceKey: { $eq: replaceKey, $exists: true },
});

/**
 * Replaces the pending job holding `doc`'s key with `doc` in place — kind, payload and lane, due now, no attempts or
 * error, lease released — keeping that job's `_id` (its place among equals). Returns whether there was one to replace
 * (never for a job without a key).
 */
export async function replacePending(
  jobs: Collection<JobDocument>,
  doc: JobDocument,
  session?: ClientSession,
): Promise<boolean> {
  if (doc.replaceKey === undefined) return false;
  const replaced = await jobs.updateOne(
    pendingHolding(doc.replaceKey),
    {
      $set: {
        kind: doc.kind,
        payload: doc.payload,
        lane: doc.lane ?? null,
        attempts: 0,
        queuedAt: doc.queuedAt,
        runAt: doc.runAt,
        leaseId: null,
        leaseUntil: null,
        lastError: null,
      },
    },
    session ? { session } : {},
  );
  return replaced.matchedCount === 1;
}

/**
 * Queues `doc` (made with `jobDocument`), outside a transaction: a job whose key a pending job holds replaces it
 * (replacePending). Of two processes queuing one key at once, the insert that loses the race to the unique index
 * replaces the winner's job instead.
 */
export async function queueJob(jobs: Collection<JobDocument>, doc: JobDocument): Promise<void> {
  if (await replacePending(jobs, doc)) return;
  try {
    await jobs.insertOne(doc);
  } catch (error) {
    if (!isDuplicateKey(error) || !(await replacePending(jobs, doc))) throw error;
  }
}
