import { ObjectId, type Db, type Document, type Filter, type UpdateFilter } from 'mongodb';
import type { ClaimRequest, Job, JobQueue, NewJob } from '../../../application/ports/job-queue.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument, queueJob } from './mongo-job-document.js';
import { JOB_DOCUMENTS, type StoredJobDocument } from './codecs/job-documents.js';
import { COLLECTION_NAMES, JOBS_BY_LANE_RUN_AT, type MongoCollections } from './mongo-schema.js';

const toJob = (doc: StoredJobDocument, leaseId: string): Job => {
  const { kind, payload, lane, attempts, queuedAt } = JOB_DOCUMENTS.fromDocument(doc);
  return {
    id: doc._id.toHexString(),
    kind,
    payload: JSON.parse(payload) as unknown,
    lane,
    attempts,
    queuedAt,
    leaseId,
  };
};

/** Pending jobs due at `now` whose lease, if any, has run out. */
export const dueJobs = (now: Date): Filter<StoredJobDocument> => ({
  state: 'pending',
  runAt: { $lte: now },
  $or: [{ leaseUntil: null }, { leaseUntil: { $lte: now } }],
});

/** Oldest due first, then queue order. */
export const CLAIM_ORDER = { runAt: 1, _id: 1 } as const;

/**
 * Every per-lane query of a claim goes through `jobs_by_lane_run_at`: equality on lane and state, then CLAIM_ORDER —
 * no sort. Hinted by its keys (findOneAndUpdate's hint is typed as a key pattern).
 */
export const LANE_INDEX = JOBS_BY_LANE_RUN_AT;

/** The due jobs of `lane` (null: jobs without a lane, or queued before lanes existed), taken in CLAIM_ORDER. */
export const dueInLane = (lane: string | null, now: Date): Filter<StoredJobDocument> => ({
  lane,
  ...dueJobs(now),
});

/**
 * The first due job of each of `lanes`, as `{ _id, runAt, lane }`: one aggregation, whose $lookup seeks each lane
 * in LANE_INDEX (the lane from localField, then the state, a runAt range and CLAIM_ORDER, which is the index's
 * order), reading one key per lane plus the leased jobs at its head — never the lane's backlog.
 */
export function laneHeadsPipeline(lanes: readonly string[], now: Date): Document[] {
  return [
    { $documents: lanes.map((lane) => ({ lane })) },
    {
      $lookup: {
        from: COLLECTION_NAMES.jobs,
        localField: 'lane',
        foreignField: 'lane',
        pipeline: [
          { $match: dueJobs(now) },
          { $sort: CLAIM_ORDER },
          { $limit: 1 },
          { $project: { _id: 1, runAt: 1 } },
        ],
        as: 'head',
      },
    },
    { $unwind: '$head' },
    { $project: { _id: '$head._id', runAt: '$head.runAt', lane: 1 } },
  ];
}

/** A job a claim means to lease: the first due job of a lane, or a due job without one. */
interface Candidate {
  readonly _id: ObjectId;
  readonly runAt: Date;
  readonly lane: string | null;
}

const inClaimOrder = (a: Pick<Candidate, '_id' | 'runAt'>, b: Pick<Candidate, '_id' | 'runAt'>): number =>
  a.runAt.getTime() - b.runAt.getTime() || a._id.toHexString().localeCompare(b._id.toHexString());

/** The document id of a job this queue handed out, or null for an id it never could have. */
function idOf(job: Job): ObjectId | null {
  return /^[0-9a-f]{24}$/i.test(job.id) ? ObjectId.createFromHexString(job.id) : null;
}

/**
 * The durable queue shared by every process on the database. A claim works lane by lane, as SQLite's does: the
 * distinct lanes with due jobs (a distinct over LANE_INDEX), less the skipped ones and those backed off (one
 * `lane_backoffs` document each), then the first due job of each (laneHeadsPipeline), so it costs the number of
 * lanes, not the backlog of a host that is down or being drained. The oldest `limit` of those heads and of the due
 * jobs without a lane are leased one at a time with `findOneAndUpdate`, atomic per document: of two processes
 * reaching for one job, one sets its lease and the other's filter no longer matches, so it takes the next due job
 * of that lane (or without a lane) instead. Completing, rescheduling and abandoning match the job's lease id, so a
 * worker whose lease was taken over can no longer touch the job. MongoQueueAdministration reads and repairs the same
 * collection for operators.
 */
export class MongoJobQueue implements JobQueue {
  constructor(
    private readonly collections: MongoCollections,
    /** For laneHeadsPipeline, which starts from `$documents`: an aggregation of the database, not a collection. */
    private readonly db: Db,
  ) {}

  async enqueue(jobs: readonly NewJob[], now: Date): Promise<void> {
    if (jobs.length === 0) return;
    const docs = jobs.map((job) => jobDocument(job, now));
    await storeCall(async () => {
      if (docs.every((doc) => doc.replaceKey === undefined)) {
        await this.collections.jobs.insertMany(docs, { ordered: true });
        return;
      }
      // Jobs with a key may replace one another's: one at a time, in order.
      for (const doc of docs) await queueJob(this.collections.jobs, doc);
    });
  }

  async claim({ now, leaseMs, limit, leaseId, skipLanes = [], onlyLanes }: ClaimRequest): Promise<Job[]> {
    if (limit <= 0) return [];
    const { jobs } = this.collections;
    const lease: UpdateFilter<StoredJobDocument> = {
      $set: { leaseId, leaseUntil: new Date(now.getTime() + leaseMs) },
    };
    // Driver 6 resolves to the document itself, or null when nothing matches (includeResultMetadata: false).
    const take = (filter: Filter<StoredJobDocument>, byLane: boolean) =>
      jobs.findOneAndUpdate(filter, lease, {
        sort: CLAIM_ORDER,
        returnDocument: 'after',
        includeResultMetadata: false,
        ...(byLane ? { hint: LANE_INDEX } : {}),
      });
    return storeCall(async () => {
      const lanes = await this.openLanes(now, skipLanes, onlyLanes);
      const heads =
        lanes.length === 0 ? [] : await this.db.aggregate<Candidate>(laneHeadsPipeline(lanes, now)).toArray();
      const laneless = await jobs
        .find(dueInLane(null, now), {
          sort: CLAIM_ORDER,
          limit,
          projection: { _id: 1, runAt: 1 },
          hint: LANE_INDEX,
        })
        .toArray();
      // The oldest `limit` of both: which lanes get their job, and how many jobs without a lane are taken.
      const chosen = [...heads, ...laneless.map((doc) => ({ _id: doc._id, runAt: doc.runAt, lane: null }))]
        .sort(inClaimOrder)
        .slice(0, limit);
      const claimed: StoredJobDocument[] = [];
      for (const candidate of chosen) {
        const doc =
          candidate.lane === null
            ? await take(dueInLane(null, now), true)
            : ((await take({ _id: candidate._id, ...dueJobs(now) }, false)) ??
              (await take(dueInLane(candidate.lane, now), true)));
        if (doc !== null) claimed.push(doc);
      }
      return claimed.sort(inClaimOrder).map((doc) => toJob(doc, leaseId));
    });
  }

  /**
   * The lanes a claim may take from: `onlyLanes`, or every lane with a due job, less `skipLanes` and the lanes
   * backed off past `now`.
   */
  private async openLanes(
    now: Date,
    skipLanes: readonly string[],
    onlyLanes?: readonly string[],
  ): Promise<string[]> {
    const { jobs, laneBackoffs } = this.collections;
    const skipped = new Set(skipLanes);
    const named: unknown[] = onlyLanes
      ? [...new Set(onlyLanes)]
      : await jobs.distinct('lane', { state: 'pending', runAt: { $lte: now } });
    const lanes = named.filter((lane): lane is string => typeof lane === 'string' && !skipped.has(lane));
    if (lanes.length === 0) return [];
    const backedOff = await laneBackoffs
      .find({ _id: { $in: lanes }, until: { $gt: now } }, { projection: { _id: 1 } })
      .toArray();
    const off = new Set(backedOff.map((doc) => doc._id));
    return lanes.filter((lane) => !off.has(lane));
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

  async postponeLane(lane: string, until: Date, now: Date): Promise<void> {
    const { laneBackoffs } = this.collections;
    await storeCall(async () => {
      // Back-offs already over change no claim: forgetting them keeps the collection to the lanes failing now.
      await laneBackoffs.deleteMany({ until: { $lte: now } });
      // One document per lane, whatever its backlog; $max: a later back-off extends it, an earlier one never
      // shortens it. Two upserts of one _id at once: the server retries the one that lost on the duplicate key.
      await laneBackoffs.updateOne({ _id: lane }, { $max: { until } }, { upsert: true });
    });
  }

  /** Matches the job while `job`'s lease still holds it (or ran out with nobody taking it over). */
  private leased(job: Job): Filter<StoredJobDocument> | null {
    const id = idOf(job);
    return id === null ? null : { _id: id, leaseId: job.leaseId, state: 'pending' };
  }

  private async updateLeased(job: Job, update: UpdateFilter<StoredJobDocument>): Promise<boolean> {
    const filter = this.leased(job);
    if (!filter) return false;
    const result = await storeCall(() => this.collections.jobs.updateOne(filter, update));
    return result.matchedCount === 1;
  }
}
