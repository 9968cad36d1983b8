import type { Database, Statement, Transaction } from 'better-sqlite3';
import type {
  ActivityFilter,
  ActivityLog,
  AppendOutcome,
  AssetChange,
} from '../../../application/ports/activity-log.js';
import { activityEntryText, type Activity } from '../../../domain/activity.js';
import { activityDeliveryJob } from '../../../domain/jobs.js';
import { activityFromLog, loggedActivity } from '../stored-records.js';
import { ACTIVITY_ROWS } from './codecs/activity-rows.js';
import { ASSET_ROWS, FIXED_ASSET_COLUMNS, type AssetRow } from './codecs/asset-rows.js';
import { prepareJobInsert } from './job-insert.js';
import { prepareDeliveryInboxes } from './sqlite-delivery-inboxes.js';
import { prepareTagIndex } from './sqlite-asset-tags.js';
import { assignments, insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { prepareProfileWrite } from './sqlite-profile-write.js';
import { FilteredSeeks, type Query } from './sqlite-seeks.js';
import { prepareTransparencyAppend } from './sqlite-transparency-log.js';

type ActivityRow = RowOf<typeof ACTIVITY_ROWS.columns>;

const COLUMNS = ACTIVITY_ROWS.list;

const fromRow = (row: ActivityRow): Activity => activityFromLog(ACTIVITY_ROWS.fromRow(row));

/** The highest idx plus one: SQLite reads MAX of the rowid alias off the end of the table's b-tree, no scan. */
export const NEXT_IDX_SQL = 'SELECT COALESCE(MAX(idx), -1) + 1 AS n FROM activities';

/** Up to `limit` activities by idx: `older` newest first below `idx`, `newer` oldest first above it. */
export function activitySeekQuery(
  filter: ActivityFilter,
  direction: 'older' | 'newer',
  idx: number,
  limit: number,
): Query {
  const [comparison, order] = direction === 'older' ? ['<', 'DESC'] : ['>', 'ASC'];
  return filter.actor === undefined
    ? {
        sql: `SELECT ${COLUMNS} FROM activities WHERE idx ${comparison} ? ORDER BY idx ${order} LIMIT ?`,
        params: [idx, limit],
      }
    : {
        sql: `SELECT ${COLUMNS} FROM activities WHERE actor = ? AND idx ${comparison} ? ORDER BY idx ${order} LIMIT ?`,
        params: [filter.actor, idx, limit],
      };
}

/** How many activities match: the next idx when unfiltered (the log has no gap), else an index-only count. */
export function activityCountQuery(filter: ActivityFilter): Query {
  return filter.actor === undefined
    ? { sql: NEXT_IDX_SQL, params: [] }
    : { sql: 'SELECT activities AS n FROM user_counts WHERE username = ?', params: [filter.actor] };
}

/**
 * The global activity log, and the only writer of assets: every append applies its asset change in the same
 * IMMEDIATE transaction, which also serialises the appends of every process on the file and so keeps idx gap-free,
 * keeps the transparency log's hashes of the new entry, and queues the activity's deliveries to the actor's followers.
 */
export class SqliteActivityLog
  extends FilteredSeeks<Activity, ActivityFilter, ActivityRow>
  implements ActivityLog
{
  private readonly selectNextIdx: Statement<[], { n: number }>;
  private readonly selectOne: Statement<[number], ActivityRow>;
  private readonly appendTransaction: Transaction<(activity: Activity, change: AssetChange) => AppendOutcome>;

  constructor(db: Database, options: { keepTree?: boolean } = {}) {
    super(db, {
      seek: activitySeekQuery,
      count: activityCountQuery,
      read: (row) => ({ position: row.idx, value: fromRow(row) }),
    });
    this.selectNextIdx = db.prepare(NEXT_IDX_SQL);
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM activities WHERE idx = ?`);

    const insertAsset = db.prepare<[AssetRow]>(insertSql(ASSET_ROWS, 'ON CONFLICT (name) DO NOTHING'));
    // Name, owner, content hash and creation time are fixed at registration; the rest is replaced.
    const updateLiveAsset = db.prepare<[AssetRow & { expected_updated_at: number }]>(`
      UPDATE assets SET ${assignments(ASSET_ROWS, FIXED_ASSET_COLUMNS)}
      WHERE name = @name AND deleted_at IS NULL AND updated_at = @expected_updated_at`);
    // The asset as it is before its change: the tags the tag index holds it under, the owner whose total moves.
    const liveAsset = db.prepare<[string], { seq: number; owner: string; tags: string }>(
      'SELECT seq, owner, tags FROM assets WHERE name = ? AND deleted_at IS NULL',
    );
    const deleteLiveAsset = db.prepare<[number, string]>(
      'UPDATE assets SET deleted_at = ? WHERE name = ? AND deleted_at IS NULL',
    );
    const countLiveAssets = db.prepare<[number]>(
      "UPDATE counters SET value = value + ? WHERE name = 'live_assets'",
    );
    const userAssets = db.prepare<[{ username: string; delta: number }]>(`
      INSERT INTO user_counts (username, live_assets) VALUES (@username, @delta)
      ON CONFLICT (username) DO UPDATE SET live_assets = live_assets + @delta`);
    const countUserAssets = (username: string, delta: number) => userAssets.run({ username, delta });
    const countUserActivity = db.prepare<[string]>(`
      INSERT INTO user_counts (username, activities) VALUES (?, 1)
      ON CONFLICT (username) DO UPDATE SET activities = activities + 1`);
    const tagIndex = prepareTagIndex(db);
    const profileWrite = prepareProfileWrite(db);
    const deliveryInboxes = prepareDeliveryInboxes(db);
    const insertJob = prepareJobInsert(db);
    const keepInTree = options.keepTree === false ? () => {} : prepareTransparencyAppend(db);
    const insertActivity = db.prepare<[ActivityRow]>(insertSql(ACTIVITY_ROWS));

    /** Applies the change; null when it was, else why not (having then written nothing). */
    const apply = (change: AssetChange): AppendOutcome | null => {
      switch (change.kind) {
        case 'create': {
          const { asset } = change;
          const inserted = insertAsset.run(ASSET_ROWS.toRow(asset));
          if (inserted.changes !== 1) return 'asset_exists';
          if (asset.deletedAt === null) {
            countLiveAssets.run(1);
            countUserAssets(asset.owner, 1);
            tagIndex.add(Number(inserted.lastInsertRowid), asset.tags);
          }
          return null;
        }
        case 'update': {
          const before = liveAsset.get(change.asset.name);
          if (!before) return 'asset_gone';
          const values = {
            ...ASSET_ROWS.toRow(change.asset),
            expected_updated_at: change.expectedUpdatedAt.getTime(),
          };
          if (updateLiveAsset.run(values).changes !== 1) return 'asset_changed';
          tagIndex.retag(before.seq, JSON.parse(before.tags) as string[], change.asset.tags);
          return null;
        }
        case 'delete': {
          const before = liveAsset.get(change.name);
          if (!before || deleteLiveAsset.run(change.deletedAt.getTime(), change.name).changes !== 1)
            return 'asset_gone';
          countLiveAssets.run(-1);
          countUserAssets(before.owner, -1);
          tagIndex.remove(before.seq, JSON.parse(before.tags) as string[]);
          return null;
        }
      }
    };

    this.appendTransaction = db.transaction((activity: Activity, change: AssetChange): AppendOutcome => {
      if (activity.idx !== this.selectNextIdx.get()?.n) return 'idx_taken';
      // Checked before the first write, so that a moved version writes nothing (the write below then holds).
      if (change.profile && profileWrite.refusal(change.profile)) return 'profile_changed';
      const refused = apply(change);
      if (refused) return refused;
      // Serialised after the asset write on purpose: if it throws, the transaction rolls the asset back too.
      const document = activityEntryText(activity.document);
      insertActivity.run(ACTIVITY_ROWS.toRow(loggedActivity(activity, document)));
      // The entry's leaf hash, the tiles it completes and the new right edge: the tree moves with the log.
      keepInTree(activity.idx, document);
      countUserActivity.run(activity.actor);
      // The transactional outbox: the activity's deliveries are queued in the transaction that appends it.
      for (const inbox of deliveryInboxes(activity.actor))
        insertJob(activityDeliveryJob(activity.idx, inbox), activity.published);
      // The owner's profile the change leaves (an avatar, header or pin gone), with its Updates, as updateProfile.
      if (change.profile) profileWrite.write(change.profile, activity.published);
      return 'appended';
    });
  }

  async nextIdx(): Promise<number> {
    return storeCall(() => this.selectNextIdx.get())?.n ?? 0;
  }

  async get(idx: number): Promise<Activity | null> {
    const row = storeCall(() => this.selectOne.get(idx));
    return row ? fromRow(row) : null;
  }

  async append(activity: Activity, change: AssetChange): Promise<AppendOutcome> {
    return storeCall(() => this.appendTransaction.immediate(activity, change));
  }

  /** The same append, inside a transaction the caller runs (it nests as a savepoint). */
  appendWithin(activity: Activity, change: AssetChange): AppendOutcome {
    return this.appendTransaction(activity, change);
  }
}
