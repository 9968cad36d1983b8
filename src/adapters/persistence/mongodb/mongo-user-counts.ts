import type { AnyBulkWriteOperation, ClientSession, Collection, Document, MongoClient } from 'mongodb';
import type { MongoCollections, UserCountDocument, UserCountField } from './mongo-schema.js';
import { isDuplicateKey } from './mongo-errors.js';
import { transaction } from './mongo-transactions.js';

/**
 * Adds `by` to one of `username`'s totals inside `session`'s transaction, so the total changes exactly when the
 * write it counts commits (a concurrent change of the same user's totals is a WriteConflict, retried whole).
 */
export async function addToUserCount(
  userCounts: MongoCollections['userCounts'],
  username: string,
  field: UserCountField,
  by: number,
  session: ClientSession,
): Promise<void> {
  await userCounts.updateOne({ _id: username }, { $inc: { [field]: by } }, { session, upsert: true });
}

/** One of `username`'s totals: one document read by `_id`, however many entries it counts (0 for none yet). */
export async function readUserCount(
  userCounts: MongoCollections['userCounts'],
  username: string,
  field: UserCountField,
): Promise<number> {
  const found = await userCounts.findOne({ _id: username }, { projection: { [field]: 1 } });
  return found?.[field] ?? 0;
}

/** Marks, in `counters`, a database whose per-user totals were counted from its data (or started empty). */
export const USER_COUNTS_BUILT = 'user_counts_built';

/**
 * Counts the per-user totals of a database written before they existed, once: in one snapshot transaction that
 * groups the activities by actor, the live assets by owner and the follows by user, writes the totals and sets
 * the mark. Two processes starting at once conflict on the mark (or on a total); the one retried finds the mark.
 * Processes of an older version still writing meanwhile would not count their writes: stop them first.
 */
export async function ensureUserCounts(client: MongoClient, collections: MongoCollections): Promise<void> {
  const { counters } = collections;
  if (await counters.findOne({ _id: USER_COUNTS_BUILT }, { projection: { _id: 1 } })) return;
  try {
    await countAll(client, collections);
  } catch (error) {
    // Another process set the mark first (committed before this transaction's snapshot): its totals stand.
    if (!isDuplicateKey(error)) throw error;
  }
}

async function countAll(client: MongoClient, collections: MongoCollections): Promise<void> {
  const { counters, userCounts, activities, assets, followers } = collections;
  await transaction<void>(client, async (session) => {
    if (await counters.findOne({ _id: USER_COUNTS_BUILT }, { session, projection: { _id: 1 } })) return;
    const totals = new Map<string, Omit<UserCountDocument, '_id'>>();
    const count = async <T extends Document>(
      collection: Collection<T>,
      match: Document,
      by: string,
      field: UserCountField,
    ): Promise<void> => {
      const pipeline = [{ $match: match }, { $group: { _id: `$${by}`, n: { $sum: 1 } } }];
      const groups = await collection.aggregate<{ _id: unknown; n: number }>(pipeline, { session }).toArray();
      for (const { _id, n } of groups)
        if (typeof _id === 'string') totals.set(_id, { ...totals.get(_id), [field]: n });
    };
    await count(activities, {}, 'actor', 'activities');
    await count(assets, { deletedAt: { $type: 'null' } }, 'owner', 'liveAssets');
    await count(followers, {}, 'username', 'followers');
    const writes: AnyBulkWriteOperation<UserCountDocument>[] = [...totals].map(([_id, counts]) => ({
      updateOne: { filter: { _id }, update: { $set: counts }, upsert: true },
    }));
    if (writes.length > 0) await userCounts.bulkWrite(writes, { session, ordered: true });
    await counters.insertOne({ _id: USER_COUNTS_BUILT, value: 1 }, { session });
  });
}
