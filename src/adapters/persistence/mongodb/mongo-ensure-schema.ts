import { MongoServerError, type Db } from 'mongodb';
import { hostKeyOfUrl } from '../../../domain/domain-rules.js';
import { isDuplicateKey } from './mongo-errors.js';
import { ensureIndexes } from './mongo-indexes.js';
import {
  COLLECTION_NAMES,
  COUNTERS,
  INDEXES,
  type CounterName,
  type MongoCollections,
} from './mongo-schema.js';

/** NamespaceExists: the collection was there already (or another process made it in between). */
const NAMESPACE_EXISTS = 48;

/**
 * Creates every collection's indexes, the per-user and per-tag totals' collections and the counter documents that
 * are missing.
 * Idempotent, and safe when several processes start on one database at once: an index that exists with the same
 * definition is left alone, and of two concurrent inserts of a counter one wins and the other finds it there.
 * Collections written inside transactions must exist before them (creating one in a transaction is refused on
 * servers before 4.4 and in cross-shard transactions); each one with an index is made by its index.
 */
export async function ensureSchema(db: Db, collections: MongoCollections): Promise<void> {
  await Promise.all(
    (Object.keys(INDEXES) as (keyof MongoCollections)[]).map((name) =>
      ensureIndexes(db, collections[name], INDEXES[name]),
    ),
  );
  // Collections with no index to make them (the totals, the log's hashes, the second factors): made here, before
  // any transaction writes them.
  for (const name of [
    COLLECTION_NAMES.userCounts,
    COLLECTION_NAMES.tagCounts,
    COLLECTION_NAMES.tlogHashes,
    COLLECTION_NAMES.tlogState,
    COLLECTION_NAMES.totpFactors,
    COLLECTION_NAMES.totpEnrolments,
  ]) {
    try {
      await db.createCollection(name);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
    }
  }
  await Promise.all(
    COUNTERS.map(async (name) => {
      if (await collections.counters.findOne({ _id: name }, { projection: { _id: 1 } })) return;
      try {
        const value = await counterStart(collections, name);
        await collections.counters.updateOne({ _id: name }, { $setOnInsert: { value } }, { upsert: true });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }),
  );
  await fillFollowerHostKeys(collections);
}

/**
 * Issue 37: followers stored before domain rules get the key of their actor's host (domain-rules.ts), computed by the
 * same JavaScript as on every insert, a thousand at a time. Idempotent: only followers without one are read.
 */
async function fillFollowerHostKeys({ followers }: MongoCollections): Promise<void> {
  const missing = followers.find({ hostKey: { $exists: false } }, { projection: { _id: 1, actor: 1 } });
  let batch: { _id: unknown; actor: string }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await followers.bulkWrite(
      batch.map((doc) => ({
        updateOne: {
          filter: { _id: doc._id as never, hostKey: { $exists: false } },
          update: { $set: { hostKey: hostKeyOfUrl(doc.actor) } },
        },
      })),
      { ordered: false },
    );
    batch = [];
  };
  for await (const doc of missing) {
    batch.push(doc);
    if (batch.length >= 1000) await flush();
  }
  await flush();
}

/**
 * The value a missing counter starts from: the data already there (0 on a new database). A counter added by a later
 * version, or one removed by hand, then goes on where the data is — never from 0 over positions already taken,
 * which would make every append collide with an existing idx.
 */
async function counterStart(collections: MongoCollections, name: CounterName): Promise<number> {
  const { users, assets, activities, followers, followRequests, actorBlocks } = collections;
  switch (name) {
    case 'users':
      return (await users.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } }))?.seq ?? 0;
    case 'live_users':
      return users.countDocuments({ deletedAt: null });
    case 'asset_seq':
      return (await assets.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } }))?.seq ?? 0;
    case 'live_assets':
      return assets.countDocuments({ deletedAt: { $type: 'null' } });
    case 'activities': {
      const last = await activities.findOne({}, { sort: { _id: -1 }, projection: { _id: 1 } });
      return last === null ? 0 : last._id + 1;
    }
    case 'follower_seq':
      return (await followers.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } }))?.seq ?? 0;
    case 'follow_request_seq':
      return (await followRequests.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } }))?.seq ?? 0;
    case 'actor_block_seq':
      return (await actorBlocks.findOne({}, { sort: { seq: -1 }, projection: { seq: 1 } }))?.seq ?? 0;
  }
}
