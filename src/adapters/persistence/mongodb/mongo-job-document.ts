import { ObjectId, type ClientSession, type Collection, type Filter } from 'mongodb';
import type { NewJob } from '../../../application/ports/job-queue.js';
import { without } from './mongo-codec.js';
import { isDuplicateKey } from './mongo-errors.js';
import { queuedJob } from '../stored-records.js';
import { JOB_DOCUMENTS, type JobDocument, type StoredJobDocument } from './codecs/job-documents.js';

/**
 * The document of a new job (JOB_DOCUMENTS). The payload is stored as JSON text (Dates become strings, `undefined`
 * null), as the other stores keep it. Ids are ObjectIds made here, so they grow in the order this process queues
 * jobs: the tie-break among jobs due at the same time.
 */
export const jobDocument = (job: NewJob, now: Date): JobDocument => ({
  _id: new ObjectId(),
  ...JOB_DOCUMENTS.toDocument(queuedJob(job, now)),
});

/**
 * The pending job holding `replaceKey`. Both conditions of the index's partial filter are spelled out, so that the
 * planner can prove the query is within it and use `jobs_pending_by_replace_key`.
 */
export const pendingHolding = (replaceKey: string): Filter<StoredJobDocument> => ({
  state: 'pending',
  replaceKey: { $eq: replaceKey, $exists: true },
});

/**
 * Replaces the pending job holding `doc`'s key with `doc` in place — kind, payload and lane, due now, no attempts or
 * error, lease released — keeping that job's `_id` (its place among equals). Returns whether there was one to replace
 * (never for a job without a key).
 */
export async function replacePending(
  jobs: Collection<StoredJobDocument>,
  doc: JobDocument,
  session?: ClientSession,
): Promise<boolean> {
  if (doc.replaceKey === undefined) return false;
  const replaced = await jobs.updateOne(
    pendingHolding(doc.replaceKey),
    // Every field of the new job but its own id and key: due now, no attempts or error, its lease released.
    { $set: without(doc, ['_id', 'replaceKey', 'state']) },
    session ? { session } : {},
  );
  return replaced.matchedCount === 1;
}

/**
 * Queues `doc` (made with `jobDocument`), outside a transaction: a job whose key a pending job holds replaces it
 * (replacePending). Of two processes queuing one key at once, the insert that loses the race to the unique index
 * replaces the winner's job instead.
 */
export async function queueJob(jobs: Collection<StoredJobDocument>, doc: JobDocument): Promise<void> {
  if (await replacePending(jobs, doc)) return;
  try {
    await jobs.insertOne(doc);
  } catch (error) {
    if (!isDuplicateKey(error) || !(await replacePending(jobs, doc))) throw error;
  }
}
