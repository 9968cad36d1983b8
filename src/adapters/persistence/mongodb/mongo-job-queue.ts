import { ObjectId, type Filter, type UpdateFilter } from 'mongodb';
import type {
  ClaimRequest,
  Job,
  JobQueue,
  KindStatistics,
  ListedJob,
  NewJob,
} from '../../../application/ports/job-queue.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument } from './mongo-job-document.js';
import type { JobDocument, MongoCollections } from './mongo-schema.js';

const toJob = (doc: JobDocument, leaseId: string): Job => ({
  id: doc._id.toHexString(),
  kind: doc.kind,
  payload: JSON.parse(doc.payload) as unknown,
  lane: doc.lane ?? null,
  attempts: doc.attempts,
  queuedAt: doc.queuedAt,
  leaseId,
});

/** Pending jobs due at `now` whose lease, if any, has run out; claimed in `CLAIM_ORDER` (index `jobs_by_state_run_at`). */
export const dueJobs = (now: Date): Filter<JobDocument> => ({
  state: 'pending',
  runAt: { $lte: now },
  $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
});

/** Oldest due first, then queue order. */
export const CLAIM_ORDER = { runAt: 1, _id: 1 } as const;

/**
 * What one findOneAndUpdate of a claim matches: a due job without a lane, or of a lane not `excluded` (and, with
 * `onlyLanes`, of one of those). Served by `jobs_by_state_run_at` in CLAIM_ORDER; the lane rule is checked on each
 * due job the scan meets, so a claim reads past the due jobs of excluded lanes that come first (see ADR 6).
 */
export function claimFilter(
  now: Date,
  excluded: ReadonlySet<string>,
  onlyLanes?: readonly string[],
): Filter<JobDocument> {
  const laneRule: Filter<JobDocument> = onlyLanes
    ? { lane: { $in: onlyLanes.filter((lane) => !excluded.has(lane)) } }
    : { lane: { $nin: [...excluded] } };
  return { $and: [dueJobs(now), { $or: [{ lane: null }, laneRule] }] };
}

/** The document id of a job this queue handed out, or null for an id it never could have. */
function idOf(job: Job): ObjectId | null {
  return /^[0-9a-f]{24}$/i.test(job.id) ? ObjectId.createFromHexString(job.id) : null;
}

/**
 * The durable queue shared by every process on the database. A claim leases jobs one at a time with
 * `findOneAndUpdate`, which is atomic per document: of two processes reaching for one job, one sets its lease and
 * the other's filter no longer matches it, so it takes the next. Completing, rescheduling and abandoning match the
 * job's lease id, so a worker whose lease was taken over can no longer touch the job.
 */
export class MongoJobQueue implements JobQueue {
  constructor(private readonly collections: MongoCollections) {}

  async enqueue(jobs: readonly NewJob[], now: Date): Promise<void> {
    if (jobs.length === 0) return;
    const docs = jobs.map((job) => jobDocument(job, now));
    await storeCall(() => this.collections.jobs.insertMany(docs, { ordered: true }));
  }

  async claim({ now, leaseMs, limit, leaseId, skipLanes = [], onlyLanes }: ClaimRequest): Promise<Job[]> {
    if (limit <= 0) return [];
    // One job per lane per claim: each lane claimed joins the lanes left out of the next findOneAndUpdate.
    const excluded = new Set(skipLanes);
    const lease: UpdateFilter<JobDocument> = {
      $set: { leaseId, leaseUntil: new Date(now.getTime() + leaseMs) },
    };
    const claimed: Job[] = [];
    await storeCall(async () => {
      while (claimed.length < limit) {
        // Driver 6 resolves to the document itself, or null when nothing is due (includeResultMetadata: false).
        const doc = await this.collections.jobs.findOneAndUpdate(
          claimFilter(now, excluded, onlyLanes),
          lease,
          {
            sort: CLAIM_ORDER,
            returnDocument: 'after',
            includeResultMetadata: false,
          },
        );
        if (doc === null) return;
        if (doc.lane) excluded.add(doc.lane);
        claimed.push(toJob(doc, leaseId));
      }
    });
    return claimed;
  }

  async complete(job: Job): Promise<boolean> {
    const filter = this.leased(job);
    if (!filter) return false;
    const result = await storeCall(() => this.collections.jobs.deleteOne(filter));
    return result.deletedCount === 1;
  }

  async reschedule(job: Job, runAt: Date, error: string): Promise<boolean> {
    return this.updateLeased(job, {
      $set: { runAt, leaseId: null, leaseUntil: null, lastError: error },
      $inc: { attempts: 1 },
    });
  }

  async abandon(job: Job, error: string): Promise<boolean> {
    return this.updateLeased(job, {
      $set: { state: 'abandoned', leaseId: null, leaseUntil: null, lastError: error },
    });
  }

  async postponeLane(lane: string, until: Date, now: Date): Promise<number> {
    const result = await storeCall(() =>
      this.collections.jobs.updateMany(
        {
          lane,
          state: 'pending',
          runAt: { $lt: until },
          $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
        },
        { $set: { runAt: until } },
      ),
    );
    return result.modifiedCount;
  }

  /** For health and metrics, not for requests: two counts of ranges of `jobs_by_state_run_at`. */
  async list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]> {
    const docs = await storeCall(() =>
      this.collections.jobs
        .find(filter.kind === null ? {} : { kind: filter.kind }, { sort: { _id: 1 }, limit: filter.limit })
        .toArray(),
    );
    return docs.map((doc) => ({
      id: doc._id.toHexString(),
      kind: doc.kind,
      state: doc.state,
      lane: doc.lane ?? null,
      attempts: doc.attempts,
      queuedAt: doc.queuedAt,
      runAt: doc.runAt,
      leased: doc.state === 'pending' && doc.leaseUntil !== null && doc.leaseUntil > now,
      lastError: doc.lastError,
    }));
  }

  async retryAbandoned(kind: string | null, now: Date): Promise<number> {
    const result = await storeCall(() =>
      this.collections.jobs.updateMany(
        { state: 'abandoned', ...(kind === null ? {} : { kind }) },
        {
          $set: { state: 'pending', attempts: 0, queuedAt: now, runAt: now, leaseId: null, leaseUntil: null },
        },
      ),
    );
    return result.modifiedCount;
  }

  async dropAbandoned(kind: string | null): Promise<number> {
    const result = await storeCall(() =>
      this.collections.jobs.deleteMany({ state: 'abandoned', ...(kind === null ? {} : { kind }) }),
    );
    return result.deletedCount;
  }

  async statsByKind(): Promise<KindStatistics[]> {
    const rows = await storeCall(() =>
      this.collections.jobs
        .aggregate<{ _id: string; pending: number; abandoned: number; oldest: Date | null }>([
          {
            $group: {
              _id: '$kind',
              pending: { $sum: { $cond: [{ $eq: ['$state', 'pending'] }, 1, 0] } },
              abandoned: { $sum: { $cond: [{ $eq: ['$state', 'abandoned'] }, 1, 0] } },
              // $min ignores nulls: the earliest queuedAt of the pending jobs only.
              oldest: { $min: { $cond: [{ $eq: ['$state', 'pending'] }, '$queuedAt', null] } },
            },
          },
          { $sort: { _id: 1 } },
        ])
        .toArray(),
    );
    return rows.map((row) => ({
      kind: row._id,
      pending: row.pending,
      abandoned: row.abandoned,
      oldestPendingQueuedAt: row.oldest ?? null,
    }));
  }

  async stats(): Promise<{ pending: number; abandoned: number }> {
    const { jobs } = this.collections;
    const [pending, abandoned] = await storeCall(() =>
      Promise.all([jobs.countDocuments({ state: 'pending' }), jobs.countDocuments({ state: 'abandoned' })]),
    );
    return { pending, abandoned };
  }

  /** Matches the job while `job`'s lease still holds it (or ran out with nobody taking it over). */
  private leased(job: Job): Filter<JobDocument> | null {
    const id = idOf(job);
    return id === null ? null : { _id: id, leaseId: job.leaseId, state: 'pending' };
  }

  private async updateLeased(job: Job, update: UpdateFilter<JobDocument>): Promise<boolean> {
    const filter = this.leased(job);
    if (!filter) return false;
    const result = await storeCall(() => this.collections.jobs.updateOne(filter, update));
    return result.matchedCount === 1;
  }
}
