import type { ClientSession, Filter, MongoClient } from 'mongodb';
import type {
  ActivityFilter,
  ActivityLog,
  AppendOutcome,
  AssetChange,
} from '../../../application/ports/activity-log.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { activityEntryText, type Activity } from '../../../domain/activity.js';
import { activityDeliveryJob } from '../../../domain/jobs.js';
import { tagKeysOf } from '../../../domain/tag-key.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import { deliveryInboxesIn } from './mongo-delivery-inboxes.js';
import { jobDocument } from './mongo-job-document.js';
import { queueProfileUpdatesIn, writeProfileIn } from './mongo-profile-write.js';
import { activityFromLog, loggedActivity } from '../stored-records.js';
import { ACTIVITY_DOCUMENTS, type ActivityDocument } from './codecs/activity-documents.js';
import { ASSET_DOCUMENTS, FIXED_ASSET_FIELDS } from './codecs/asset-documents.js';
import { without } from './mongo-codec.js';
import type { MongoCollections } from './mongo-schema.js';
import { seek, type Seek } from './mongo-seeks.js';
import { addToTagCounts } from './mongo-tag-index.js';
import { addToCounter, readCounter, transaction, type Refuse } from './mongo-transactions.js';
import { appendToTransparencyLog } from './mongo-transparency-log.js';
import { leafHashOfEntry } from '../transparency-hashes.js';
import { addToUserCount, readUserCount } from './mongo-user-counts.js';

const fromDocument = (doc: ActivityDocument): Activity =>
  activityFromLog(ACTIVITY_DOCUMENTS.fromDocument(doc));

const byActor = (filter: ActivityFilter): Filter<ActivityDocument> =>
  filter.actor === undefined ? {} : { actor: filter.actor };

/**
 * The global activity log (`_id` = idx), its transparency log's hashes, and the only writer of assets. The `activities` counter holds the next
 * idx; an append moves it on with an update that matches only while it still holds the activity's idx, and inserts
 * the activity and applies its asset change in the same transaction. So idx are handed out with no gap and no
 * repeat across processes: two appends at one idx conflict on the counter document (a WriteConflict, labelled
 * TransientTransactionError: one commits, the other is run again and finds the idx taken), and a writer that dies
 * mid-append leaves an uncommitted transaction, which the server discards whole. The counter exists before any
 * append (ready() creates it), so no append races to create it. Per-user totals (activities by actor, live assets
 * by owner) change in the same transaction.
 */
export class MongoActivityLog implements ActivityLog {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async nextIdx(): Promise<number> {
    return storeCall(() => readCounter(this.collections.counters, 'activities'));
  }

  async get(idx: number): Promise<Activity | null> {
    const doc = await storeCall(() => this.collections.activities.findOne({ _id: idx }));
    return doc ? fromDocument(doc) : null;
  }

  async append(activity: Activity, change: AssetChange): Promise<AppendOutcome> {
    // Throws, before any transaction starts, for a document JSON cannot hold or the log could not serve.
    leafHashOfEntry(activity.idx, activityEntryText(activity.document));
    return storeCall(() =>
      transaction<AppendOutcome>(this.client, async (session, refuse) => {
        await this.appendIn(session, activity, change, refuse);
        return 'appended';
      }),
    );
  }

  /**
   * The append inside a transaction the caller runs: claims the idx, writes the profile the change carries, applies
   * the change, inserts the activity and queues one delivery per distinct follower inbox (and the profile's Updates);
   * `refuse` ends the whole transaction with nothing written.
   */
  async appendIn(
    session: ClientSession,
    activity: Activity,
    change: AssetChange,
    refuse: Refuse<AppendOutcome>,
  ): Promise<void> {
    const document = activityEntryText(activity.document);
    const { counters, activities, followers, jobs } = this.collections;
    const claimed = await counters.updateOne(
      { _id: 'activities', value: activity.idx },
      { $inc: { value: 1 } },
      { session },
    );
    if (claimed.matchedCount !== 1) refuse('idx_taken');
    // The owner's profile the change leaves (an avatar, header or pin gone), written as updateProfile writes it.
    if (change.profile && (await writeProfileIn(this.collections, change.profile, session)) !== 'updated')
      refuse('profile_changed');
    await this.apply(change, session, refuse);
    await addToUserCount(this.collections.userCounts, activity.actor, 'activities', 1, session);
    await activities.insertOne(ACTIVITY_DOCUMENTS.toDocument(loggedActivity(activity, document)), {
      session,
    });
    // The entry's leaf hash, the tiles it completes and the new right edge: the tree moves with the log.
    await appendToTransparencyLog(this.collections, activity.idx, document, session);
    // The transactional outbox: one delivery per distinct follower inbox, queued with the activity.
    const inboxes = await deliveryInboxesIn(followers, activity.actor, session);
    if (inboxes.length > 0)
      await jobs.insertMany(
        inboxes.map((inbox) => jobDocument(activityDeliveryJob(activity.idx, inbox), activity.published)),
        { session },
      );
    if (change.profile)
      await queueProfileUpdatesIn(this.collections, change.profile.username, activity.published, session);
  }

  async listOlder(
    filter: ActivityFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<Activity>[]> {
    return this.seek(filter, { direction: 'older', position: before, limit });
  }

  async listNewer(filter: ActivityFilter, after: number, limit: number): Promise<Positioned<Activity>[]> {
    return this.seek(filter, { direction: 'newer', position: after, limit });
  }

  /** Unfiltered: the next idx (the log has no gap); by actor: the actor's total. One document read either way. */
  async count(filter: ActivityFilter): Promise<number> {
    const { userCounts, counters } = this.collections;
    return storeCall(() =>
      filter.actor === undefined
        ? readCounter(counters, 'activities')
        : readUserCount(userCounts, filter.actor, 'activities'),
    );
  }

  /** Applies the change inside the append's transaction, or refuses the append (which writes nothing). */
  private async apply(
    change: AssetChange,
    session: ClientSession,
    refuse: Refuse<AppendOutcome>,
  ): Promise<void> {
    const { assets, counters, userCounts, tagCounts } = this.collections;
    switch (change.kind) {
      case 'create': {
        const { asset } = change;
        if (await assets.findOne({ _id: asset.name }, { session, projection: { _id: 1 } }))
          refuse('asset_exists');
        const seq = await addToCounter(counters, 'asset_seq', 1, session);
        try {
          await assets.insertOne({ ...ASSET_DOCUMENTS.toDocument(asset), seq }, { session });
        } catch (error) {
          if (isDuplicateKey(error)) refuse('asset_exists');
          throw error;
        }
        if (asset.deletedAt === null) {
          await addToCounter(counters, 'live_assets', 1, session);
          await addToUserCount(userCounts, asset.owner, 'liveAssets', 1, session);
          await addToTagCounts(tagCounts, tagKeysOf(asset.tags), 1, session);
        }
        return;
      }
      case 'update': {
        // Name, owner, content hash and creation time are fixed at registration; the rest is replaced.
        // The document as it was, for the tags whose totals move.
        const { asset } = change;
        const before = await assets.findOneAndUpdate(
          { _id: asset.name, deletedAt: null, updatedAt: change.expectedUpdatedAt },
          { $set: without(ASSET_DOCUMENTS.toDocument(asset), FIXED_ASSET_FIELDS) },
          { session, projection: { tags: 1 }, returnDocument: 'before', includeResultMetadata: false },
        );
        if (before === null) {
          const live = await assets.findOne(
            { _id: asset.name, deletedAt: null },
            { session, projection: { _id: 1 } },
          );
          return refuse(live ? 'asset_changed' : 'asset_gone');
        }
        const [had, has] = [tagKeysOf(before.tags), tagKeysOf(asset.tags)];
        await addToTagCounts(
          tagCounts,
          had.filter((key) => !has.includes(key)),
          -1,
          session,
        );
        await addToTagCounts(
          tagCounts,
          has.filter((key) => !had.includes(key)),
          1,
          session,
        );
        return;
      }
      case 'delete': {
        // The document as it was (driver 6 returns it, not a ModifyResult), for the owner whose total drops.
        const deleted = await assets.findOneAndUpdate(
          { _id: change.name, deletedAt: null },
          { $set: { deletedAt: change.deletedAt } },
          { session, projection: { owner: 1, tags: 1 }, includeResultMetadata: false },
        );
        if (deleted === null) return refuse('asset_gone');
        await addToCounter(counters, 'live_assets', -1, session);
        await addToUserCount(userCounts, deleted.owner, 'liveAssets', -1, session);
        await addToTagCounts(tagCounts, tagKeysOf(deleted.tags), -1, session);
        return;
      }
    }
  }

  private async seek(filter: ActivityFilter, how: Seek): Promise<Positioned<Activity>[]> {
    const docs = await storeCall(() => seek(this.collections.activities, byActor(filter), '_id', how));
    return docs.map((doc) => ({ position: doc._id, value: fromDocument(doc) }));
  }
}
