import type { UpdateFilter } from 'mongodb';
import type {
  KindStatistics,
  ListedJob,
  QueueAdministration,
  QueueTotals,
} from '../../../application/ports/queue-administration.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import { JOB_DOCUMENTS, type StoredJobDocument } from './codecs/job-documents.js';
import type { MongoCollections } from './mongo-schema.js';

/** An operator's view of the jobs MongoJobQueue holds: counts, listing, retry and drop. */
export class MongoQueueAdministration implements QueueAdministration {
  constructor(private readonly collections: MongoCollections) {}

  async list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]> {
    const docs = await storeCall(() =>
      this.collections.jobs
        .find(filter.kind === null ? {} : { kind: filter.kind }, { sort: { _id: 1 }, limit: filter.limit })
        .toArray(),
    );
    const lanes = [...new Set(docs.map((doc) => doc.lane).filter((lane): lane is string => Boolean(lane)))];
    const backoffs = new Map(
      lanes.length === 0
        ? []
        : (await storeCall(() => this.collections.laneBackoffs.find({ _id: { $in: lanes } }).toArray())).map(
            (b) => [b._id, b.until.getTime()],
          ),
    );
    return docs.map((doc) => {
      const job = JOB_DOCUMENTS.fromDocument(doc);
      return {
        id: doc._id.toHexString(),
        kind: job.kind,
        state: job.state,
        lane: job.lane,
        attempts: job.attempts,
        queuedAt: job.queuedAt,
        runAt: new Date(Math.max(job.runAt.getTime(), backoffs.get(job.lane ?? '') ?? 0)),
        leased: job.state === 'pending' && doc.leaseUntil !== null && doc.leaseUntil > now,
        lastError: job.lastError,
      };
    });
  }

  /**
   * Jobs without a key go back at once. Of those sharing a key, the newest is tried, and the unique index refuses it
   * while a pending job holds the key (another process may queue one at any moment, so the index decides, not a
   * read before): refused, it stays abandoned, as do the older ones.
   */
  async retryAbandoned(kind: string | null, now: Date): Promise<number> {
    const { jobs } = this.collections;
    const ofKind = kind === null ? {} : { kind };
    const back: UpdateFilter<StoredJobDocument> = {
      $set: { state: 'pending', attempts: 0, queuedAt: now, runAt: now, leaseId: null, leaseUntil: null },
    };
    return storeCall(async () => {
      const unkeyed = await jobs.updateMany(
        { state: 'abandoned', replaceKey: { $exists: false }, ...ofKind },
        back,
      );
      let retried = unkeyed.modifiedCount;
      const keyed = jobs.find(
        { state: 'abandoned', replaceKey: { $exists: true }, ...ofKind },
        { sort: { _id: -1 }, projection: { _id: 1, replaceKey: 1 } },
      );
      const seen = new Set<string>();
      for await (const doc of keyed) {
        if (doc.replaceKey === undefined || seen.has(doc.replaceKey)) continue;
        seen.add(doc.replaceKey);
        try {
          retried += (await jobs.updateOne({ _id: doc._id, state: 'abandoned' }, back)).modifiedCount;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
      }
      return retried;
    });
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

  /** For health and metrics, not for requests: two counts of ranges of `jobs_by_state_run_at`. */
  async stats(): Promise<QueueTotals> {
    const { jobs } = this.collections;
    const [pending, abandoned] = await storeCall(() =>
      Promise.all([jobs.countDocuments({ state: 'pending' }), jobs.countDocuments({ state: 'abandoned' })]),
    );
    return { pending, abandoned };
  }
}
