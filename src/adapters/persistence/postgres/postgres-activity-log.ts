import type {
  ActivityFilter,
  ActivityLog,
  AppendOutcome,
  AssetChange,
} from '../../../application/ports/activity-log.js';
import { activityEntryText, type Activity } from '../../../domain/activity.js';
import { activityDeliveryJob } from '../../../domain/jobs.js';
import { activityFromLog, loggedActivity } from '../stored-records.js';
import { leafHashOfEntry } from '../transparency-hashes.js';
import { ACTIVITY_ROWS } from './codecs/activity-rows.js';
import { ASSET_ROWS, FIXED_ASSET_COLUMNS, type AssetRow } from './codecs/asset-rows.js';
import { addToTagIndex, removeFromTagIndex, retag } from './postgres-asset-tags.js';
import { assignments, insertSql, type RowOf } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { deliveryInboxes } from './postgres-delivery-inboxes.js';
import { insertJobs } from './postgres-job-insert.js';
import { profileRefusal, writeProfile } from './postgres-profile-write.js';
import { FilteredSeeks, seekOrder, type Query } from './postgres-seeks.js';
import { named, type Queryable } from './postgres-sql.js';
import { keepInTree, lockedTree } from './postgres-transparency-log.js';

type ActivityRow = RowOf<typeof ACTIVITY_ROWS.columns>;

const COLUMNS = ACTIVITY_ROWS.list;

const fromRow = (row: ActivityRow): Activity => activityFromLog(ACTIVITY_ROWS.fromRow(row));

/** The next idx: the tree's size, which every append moves on in its transaction (the log has no gap). */
export const NEXT_IDX_SQL = 'SELECT size AS n FROM tlog_state WHERE id = 1';

/** Up to `limit` activities by idx: `older` newest first below `idx`, `newer` oldest first above it. */
export function activitySeekQuery(
  filter: ActivityFilter,
  direction: 'older' | 'newer',
  idx: number,
  limit: number,
): Query {
  const [comparison, order] = seekOrder(direction);
  return filter.actor === undefined
    ? {
        text: `SELECT ${COLUMNS} FROM activities WHERE idx ${comparison} $1 ORDER BY idx ${order} LIMIT $2`,
        params: [idx, limit],
      }
    : {
        text: `SELECT ${COLUMNS} FROM activities WHERE actor = $1 AND idx ${comparison} $2 ORDER BY idx ${order} LIMIT $3`,
        params: [filter.actor, idx, limit],
      };
}

/** How many activities match: the next idx when unfiltered, else the actor's total (one row either way). */
export function activityCountQuery(filter: ActivityFilter): Query {
  return filter.actor === undefined
    ? { text: NEXT_IDX_SQL, params: [] }
    : { text: 'SELECT activities AS n FROM user_counts WHERE username = $1', params: [filter.actor] };
}

const INSERT_ASSET = named<AssetRow>(insertSql(ASSET_ROWS, 'ON CONFLICT (name) DO NOTHING RETURNING seq'));
// Name, owner, content hash and creation time are fixed at registration; the rest is replaced.
const UPDATE_LIVE_ASSET = named<AssetRow & { expected_updated_at: Date }>(`
  UPDATE assets SET ${assignments(ASSET_ROWS, FIXED_ASSET_COLUMNS)}
  WHERE name = @name AND deleted_at IS NULL AND updated_at = @expected_updated_at`);
const INSERT_ACTIVITY = named<ActivityRow>(insertSql(ACTIVITY_ROWS));

/** Moves the live assets' totals (all, and the owner's) by `delta`. */
async function countLiveAssets(tx: Queryable, owner: string, delta: number): Promise<void> {
  await tx.query(
    `WITH total AS (UPDATE counters SET value = value + $2 WHERE name = 'live_assets')
     INSERT INTO user_counts (username, live_assets) VALUES ($1, $2)
     ON CONFLICT (username) DO UPDATE SET live_assets = user_counts.live_assets + $2`,
    [owner, delta],
  );
}

/** The asset as it is before its change: the tags the tag index holds it under, the owner whose total moves. */
async function liveAsset(
  tx: Queryable,
  name: string,
): Promise<{ seq: number; owner: string; tags: string } | undefined> {
  const [row] = await tx.query<{ seq: number; owner: string; tags: string }>(
    'SELECT seq, owner, tags FROM assets WHERE name = $1 AND deleted_at IS NULL',
    [name],
  );
  return row;
}

/** Applies the change; null when it was, else why not (having then written nothing). */
async function apply(tx: Queryable, change: AssetChange): Promise<AppendOutcome | null> {
  switch (change.kind) {
    case 'create': {
      const { asset } = change;
      const [inserted] = await INSERT_ASSET.run<{ seq: number }>(tx, ASSET_ROWS.toRow(asset));
      if (!inserted) return 'asset_exists';
      if (asset.deletedAt === null) {
        await countLiveAssets(tx, asset.owner, 1);
        await addToTagIndex(tx, inserted.seq, asset.tags);
      }
      return null;
    }
    case 'update': {
      const before = await liveAsset(tx, change.asset.name);
      if (!before) return 'asset_gone';
      const values = { ...ASSET_ROWS.toRow(change.asset), expected_updated_at: change.expectedUpdatedAt };
      if ((await UPDATE_LIVE_ASSET.run(tx, values)).count !== 1) return 'asset_changed';
      await retag(tx, before.seq, JSON.parse(before.tags) as string[], change.asset.tags);
      return null;
    }
    case 'delete': {
      const [before] = await tx.query<{ seq: number; owner: string; tags: string }>(
        `UPDATE assets SET deleted_at = $1 WHERE name = $2 AND deleted_at IS NULL RETURNING seq, owner, tags`,
        [change.deletedAt, change.name],
      );
      if (!before) return 'asset_gone';
      await countLiveAssets(tx, before.owner, -1);
      await removeFromTagIndex(tx, before.seq, JSON.parse(before.tags) as string[]);
      return null;
    }
  }
}

/**
 * The append inside the caller's transaction (the log's own, or an account removal's): locks the tree's row — so
 * appends of every instance take turns, and the idx read is the one to use — checks the idx and the profile, applies
 * the change, inserts the activity, keeps its hashes, and queues one delivery per distinct follower inbox (and the
 * profile's Updates). Answers why not, having written nothing, or 'appended'.
 */
export async function appendIn(
  tx: Queryable,
  activity: Activity,
  change: AssetChange,
): Promise<AppendOutcome> {
  const tree = await lockedTree(tx);
  if (activity.idx !== tree.size) return 'idx_taken';
  // Checked before the first write, so that a moved version writes nothing (the write below then holds).
  if (change.profile && (await profileRefusal(tx, change.profile))) return 'profile_changed';
  const refused = await apply(tx, change);
  if (refused) return refused;
  const document = activityEntryText(activity.document);
  await INSERT_ACTIVITY.run(tx, ACTIVITY_ROWS.toRow(loggedActivity(activity, document)));
  // The entry's leaf hash, the tiles it completes and the new right edge: the tree moves with the log.
  await keepInTree(tx, tree, activity.idx, document);
  await tx.query(
    `INSERT INTO user_counts (username, activities) VALUES ($1, 1)
     ON CONFLICT (username) DO UPDATE SET activities = user_counts.activities + 1`,
    [activity.actor],
  );
  // The transactional outbox: the activity's deliveries are queued in the transaction that appends it.
  const inboxes = await deliveryInboxes(tx, activity.actor);
  await insertJobs(
    tx,
    inboxes.map((inbox) => activityDeliveryJob(activity.idx, inbox)),
    activity.published,
  );
  // The owner's profile the change leaves (an avatar, header or pin gone), with its Updates, as updateProfile.
  if (change.profile) await writeProfile(tx, change.profile, activity.published);
  return 'appended';
}

/**
 * The global activity log, and the only writer of assets: every append applies its asset change in its
 * transaction, which holds the tree's row lock (so idx is gap-free across instances: a writer that dies mid-append
 * leaves a transaction the server rolls back whole), keeps the transparency log's hashes of the new entry, and
 * queues the activity's deliveries to the actor's followers.
 */
export class PostgresActivityLog
  extends FilteredSeeks<Activity, ActivityFilter, ActivityRow>
  implements ActivityLog
{
  constructor(private readonly database: PostgresDatabase) {
    super(database, {
      seek: activitySeekQuery,
      count: activityCountQuery,
      read: (row) => ({ position: row.idx, value: fromRow(row) }),
    });
  }

  async nextIdx(): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(NEXT_IDX_SQL);
    return row?.n ?? 0;
  }

  async get(idx: number): Promise<Activity | null> {
    // A bigint column refuses 0.5 outright (SQLite just finds nothing): no such idx is ever appended.
    if (!Number.isSafeInteger(idx)) return null;
    const [row] = await this.db.query<ActivityRow>(`SELECT ${COLUMNS} FROM activities WHERE idx = $1`, [idx]);
    return row ? fromRow(row) : null;
  }

  async append(activity: Activity, change: AssetChange): Promise<AppendOutcome> {
    // Throws, before any transaction starts, for a document JSON cannot hold or the log could not serve.
    leafHashOfEntry(activity.idx, activityEntryText(activity.document));
    return this.database.transaction<AppendOutcome>(async (tx, refuse) => {
      const outcome = await appendIn(tx, activity, change);
      return outcome === 'appended' ? outcome : refuse(outcome);
    });
  }
}
