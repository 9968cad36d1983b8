import type { AnyBulkWriteOperation, ClientSession, MongoClient } from 'mongodb';
import { tagKeysOf } from '../../../domain/tag-key.js';
import { isDuplicateKey } from './mongo-errors.js';
import type { StoredAssetDocument } from './codecs/asset-documents.js';
import type { MongoCollections, TagCountDocument } from './mongo-schema.js';
import { transaction } from './mongo-transactions.js';

/**
 * Adds `by` to the live-asset total of each tag key inside `session`'s transaction, so a tag's total changes exactly
 * when the asset write it counts commits.
 */
export async function addToTagCounts(
  tagCounts: MongoCollections['tagCounts'],
  keys: readonly string[],
  by: number,
  session: ClientSession,
): Promise<void> {
  for (const key of keys)
    await tagCounts.updateOne({ _id: key }, { $inc: { liveAssets: by } }, { session, upsert: true });
}

/** How many live assets carry the tag key: one document read by `_id` (0 for a key nobody uses). */
export async function readTagCount(tagCounts: MongoCollections['tagCounts'], key: string): Promise<number> {
  return (await tagCounts.findOne({ _id: key }))?.liveAssets ?? 0;
}

/** Marks, in `counters`, a database whose assets all have their tag keys and whose tag totals were counted. */
export const TAG_INDEX_BUILT = 'tag_index_built';

/** Assets given their keys per bulk write. */
const BATCH = 1_000;

/**
 * Builds the tag index of a database written before it existed, once: gives every asset without `tagKeys` its keys
 * (computed in JavaScript, which lower-cases every script where $toLower folds only ASCII; idempotent, so done
 * outside a transaction, in batches), then in one snapshot transaction counts the live assets of each key, replaces
 * the totals and sets the mark. Two processes starting at once write the same keys and conflict on the mark; the one
 * retried finds it. Processes of an older version still writing meanwhile would leave their assets without keys:
 * stop them first.
 */
export async function ensureTagIndex(client: MongoClient, collections: MongoCollections): Promise<void> {
  const { counters, assets } = collections;
  if (await counters.findOne({ _id: TAG_INDEX_BUILT }, { projection: { _id: 1 } })) return;
  let writes: AnyBulkWriteOperation<StoredAssetDocument>[] = [];
  for await (const doc of assets.find({ tagKeys: { $exists: false } }, { projection: { tags: 1 } })) {
    writes.push({
      updateOne: {
        filter: { _id: doc._id, tagKeys: { $exists: false } },
        update: { $set: { tagKeys: tagKeysOf(doc.tags) } },
      },
    });
    if (writes.length >= BATCH) {
      await assets.bulkWrite(writes, { ordered: false });
      writes = [];
    }
  }
  if (writes.length > 0) await assets.bulkWrite(writes, { ordered: false });
  try {
    await transaction<void>(client, async (session) => {
      if (await counters.findOne({ _id: TAG_INDEX_BUILT }, { session, projection: { _id: 1 } })) return;
      await replaceTagCounts(collections, session);
      await counters.insertOne({ _id: TAG_INDEX_BUILT, value: 1 }, { session });
    });
  } catch (error) {
    // Another process set the mark first (committed before this transaction's snapshot): its totals stand.
    if (!isDuplicateKey(error)) throw error;
  }
}

/**
 * Counts the live assets of every tag key and replaces the totals with the counts (in `session`'s transaction when
 * given): at the first start of this version, and after an import.
 */
export async function replaceTagCounts(
  { assets, tagCounts }: MongoCollections,
  session?: ClientSession,
): Promise<void> {
  const options = session ? { session } : {};
  const groups = await assets
    .aggregate<TagCountDocument>(
      [
        { $match: { deletedAt: { $type: 'null' } } },
        { $unwind: '$tagKeys' },
        { $group: { _id: '$tagKeys', liveAssets: { $sum: 1 } } },
      ],
      options,
    )
    .toArray();
  await tagCounts.deleteMany({}, options);
  if (groups.length > 0) await tagCounts.insertMany(groups, { ...options, ordered: true });
}
