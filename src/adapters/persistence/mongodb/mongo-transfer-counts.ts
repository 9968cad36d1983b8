// After an import: the counters, per-user and per-tag totals the adapters keep in their transactions, set from what
// was imported.
import type { Document } from 'mongodb';
import { storeCall } from './mongo-errors.js';
import type { CounterName, MongoCollections, UserCountDocument } from './mongo-schema.js';
import { replaceTagCounts, TAG_INDEX_BUILT } from './mongo-tag-index.js';
import { USER_COUNTS_BUILT } from './mongo-user-counts.js';

/**
 * The last position an import handed out, per positioned collection (users, assets, follows, follow requests, actor
 * blocks: 1, 2, 3, …).
 */
export interface ImportPositions {
  users: number;
  assets: number;
  followers: number;
  followRequests: number;
  actorBlocks: number;
}

export async function rebuildCounts(c: MongoCollections, positions: ImportPositions): Promise<void> {
  const [liveUsers, liveAssets, activities] = await Promise.all([
    storeCall(() => c.users.countDocuments({ deletedAt: null })),
    storeCall(() => c.assets.countDocuments({ deletedAt: null })),
    storeCall(() => c.activities.countDocuments({})),
  ]);
  const values: Record<CounterName, number> = {
    users: positions.users,
    live_users: liveUsers,
    asset_seq: positions.assets,
    live_assets: liveAssets,
    activities,
    follower_seq: positions.followers,
    follow_request_seq: positions.followRequests,
    actor_block_seq: positions.actorBlocks,
  };
  for (const [name, value] of Object.entries(values) as [CounterName, number][])
    await storeCall(() => c.counters.updateOne({ _id: name }, { $set: { value } }, { upsert: true }));
  const totals = new Map<string, Omit<UserCountDocument, '_id'>>();
  const tally = async (
    collection: { aggregate(p: Document[]): AsyncIterable<Document> },
    match: Document,
    by: string,
    field: 'activities' | 'liveAssets' | 'followers',
  ) => {
    for await (const row of collection.aggregate([
      { $match: match },
      { $group: { _id: `$${by}`, n: { $sum: 1 } } },
    ]))
      totals.set(row._id as string, { ...totals.get(row._id as string), [field]: row.n as number });
  };
  await storeCall(() => tally(c.activities as never, {}, 'actor', 'activities'));
  await storeCall(() => tally(c.assets as never, { deletedAt: null }, 'owner', 'liveAssets'));
  await storeCall(() => tally(c.followers as never, {}, 'username', 'followers'));
  await storeCall(() => c.userCounts.deleteMany({}));
  if (totals.size > 0)
    await storeCall(() => c.userCounts.insertMany([...totals].map(([_id, fields]) => ({ _id, ...fields }))));
  await storeCall(() =>
    c.counters.updateOne({ _id: USER_COUNTS_BUILT }, { $set: { value: 1 } }, { upsert: true }),
  );
  // Every imported asset has its tag keys: the totals are counted from them, and the index is built.
  await storeCall(() => replaceTagCounts(c));
  await storeCall(() =>
    c.counters.updateOne({ _id: TAG_INDEX_BUILT }, { $set: { value: 1 } }, { upsert: true }),
  );
}
