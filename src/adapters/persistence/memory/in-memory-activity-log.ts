import type {
  ActivityFilter,
  ActivityLog,
  AppendOutcome,
  AssetChange,
} from '../../../application/ports/activity-log.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { activityEntryText, type Activity } from '../../../domain/activity.js';
import type { Asset } from '../../../domain/asset.js';
import { activityDeliveryJob } from '../../../domain/jobs.js';
import { copyOfAsset } from './in-memory-asset-repository.js';
import { MemoryDatabase, type StoredActivity, type StoredAsset } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

const activityOf = ({ activity, document }: StoredActivity): Activity => ({
  idx: activity.idx,
  type: activity.type,
  actor: activity.actor,
  object: activity.object,
  published: new Date(activity.published),
  document: JSON.parse(document) as Record<string, unknown>,
});

const byActor =
  (filter: ActivityFilter) =>
  ({ activity }: StoredActivity): boolean =>
    filter.actor === undefined || activity.actor === filter.actor;

/** The write an accepted change makes, prepared before anything changes. */
type AssetWrite =
  | { readonly kind: 'insert'; readonly asset: Asset }
  | { readonly kind: 'replace'; readonly stored: StoredAsset; readonly asset: Asset };

/**
 * The global activity log (position = idx = index in `db.activities`) and the only writer of assets. An append
 * runs without an await, so it is one transaction; it checks and copies everything before its first change, so a
 * throw leaves the store as it was. It queues the activity's deliveries to the actor's followers with it.
 */
export class InMemoryActivityLog implements ActivityLog {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async nextIdx(): Promise<number> {
    this.db.assertOpen();
    return this.db.activities.length;
  }

  async get(idx: number): Promise<Activity | null> {
    this.db.assertOpen();
    const stored = Number.isInteger(idx) ? this.db.activities[idx] : undefined;
    return stored ? activityOf(stored) : null;
  }

  async append(activity: Activity, change: AssetChange): Promise<AppendOutcome> {
    this.db.assertOpen();
    return appendTo(this.db, activity, change);
  }

  async listOlder(
    filter: ActivityFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<Activity>[]> {
    this.db.assertOpen();
    return seekOlder(this.db.activities, before, limit, byActor(filter), activityOf);
  }

  async listNewer(filter: ActivityFilter, after: number, limit: number): Promise<Positioned<Activity>[]> {
    this.db.assertOpen();
    return seekNewer(this.db.activities, after, limit, byActor(filter), activityOf);
  }

  async count(filter: ActivityFilter): Promise<number> {
    this.db.assertOpen();
    if (filter.actor === undefined) return this.db.activities.length;
    return this.db.activities.filter(byActor(filter)).length;
  }
}

/**
 * Appends `activity` with its asset change and its deliveries, or refuses without writing anything. Runs without an
 * await, so it is one transaction; everything is checked and copied before the first change.
 */
export function appendTo(db: MemoryDatabase, activity: Activity, change: AssetChange): AppendOutcome {
  if (activity.idx !== db.activities.length) return 'idx_taken';
  if (change.profile && db.profileRefusal(change.profile)) return 'profile_changed';
  const write = writeFor(db, change);
  if (typeof write === 'string') return write;
  const document = activityEntryText(activity.document);
  // The tree's new hashes and edge, computed before the first change (an entry too large throws here).
  const tree = db.tlog.prepare(activity.idx, document);
  const stored: StoredActivity = {
    position: activity.idx,
    activity: {
      idx: activity.idx,
      type: activity.type,
      actor: activity.actor,
      object: activity.object,
      published: new Date(activity.published),
    },
    document,
  };

  if (write.kind === 'insert') db.insertAsset(write.asset);
  else db.replaceAsset(write.stored, write.asset);
  db.activities.push(stored);
  db.tlog.apply(tree);
  // The transactional outbox: one delivery per follower inbox, queued with the activity it delivers.
  for (const inbox of db.deliveryInboxes(activity.actor))
    db.insertJob(activityDeliveryJob(activity.idx, inbox), activity.published);
  // The owner's profile the change leaves (an avatar, header or pin gone), with its Updates, as updateProfile does.
  if (change.profile) db.writeProfile(change.profile, activity.published);
  return 'appended';
}

function writeFor(
  db: MemoryDatabase,
  change: AssetChange,
): AssetWrite | 'asset_exists' | 'asset_gone' | 'asset_changed' {
  if (change.kind === 'create') {
    return db.assets.has(change.asset.name)
      ? 'asset_exists'
      : { kind: 'insert', asset: copyOfAsset(change.asset) };
  }
  const name = change.kind === 'update' ? change.asset.name : change.name;
  const stored = db.assets.get(name);
  if (!stored || stored.asset.deletedAt !== null) return 'asset_gone';
  if (change.kind === 'update' && stored.asset.updatedAt.getTime() !== change.expectedUpdatedAt.getTime()) {
    return 'asset_changed';
  }
  // Name, owner, content hash and creation time are fixed at registration; an update replaces the rest.
  const fixed = stored.asset;
  const asset: Asset =
    change.kind === 'update'
      ? {
          ...copyOfAsset(change.asset),
          name: fixed.name,
          owner: fixed.owner,
          contentHash: fixed.contentHash,
          createdAt: fixed.createdAt,
          deletedAt: fixed.deletedAt,
        }
      : { ...stored.asset, deletedAt: new Date(change.deletedAt) };
  return { kind: 'replace', stored, asset };
}
