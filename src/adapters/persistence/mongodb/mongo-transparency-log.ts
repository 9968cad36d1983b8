import { Binary, type AnyBulkWriteOperation, type ClientSession, type MongoClient } from 'mongodb';
import {
  LogDataMissingError,
  type SignedCheckpoint,
  type TransparencyLogState,
  type TransparencyLogStore,
} from '../../../application/ports/transparency-log-store.js';
import { activityEntryBytes } from '../../../domain/activity.js';
import { EMPTY_RIGHT_EDGE, type RightEdge, type TileLevelHash } from '@l2/tlog';
import { appendEntry, edgeBytes, plainBytes, storedEdge } from '../transparency-hashes.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import { tlogHashId, type MongoCollections, type TlogHashDocument } from './mongo-schema.js';
import { transaction } from './mongo-transactions.js';

const STATE = 'state' as const;

const hashDocuments = (completed: readonly TileLevelHash[]): TlogHashDocument[] =>
  completed.map(({ level, index, hash }) => ({ _id: tlogHashId(level, index), hash: new Binary(hash) }));

/**
 * The append's part in keeping the tree, inside its transaction: reads the state document, adds the entry's
 * hashes and moves the size and edge on — only while the size is still `idx` (the counter claim before this has
 * already made two appends at one idx conflict; this keeps the two in step or fails the transaction).
 */
export async function appendToTransparencyLog(
  collections: MongoCollections,
  idx: number,
  text: string,
  session: ClientSession,
): Promise<void> {
  const { tlogState, tlogHashes } = collections;
  const state = await tlogState.findOne({ _id: STATE }, { session, projection: { size: 1, edge: 1 } });
  if (state === null) throw new Error('the transparency log has no state document (ready() not run?)');
  const { edge, completed } = appendEntry(storedEdge(state.size, state.edge.buffer), idx, text);
  await tlogHashes.insertMany(hashDocuments(completed), { session, ordered: true });
  const moved = await tlogState.updateOne(
    { _id: STATE, size: idx },
    { $set: { size: edge.size, edge: new Binary(edgeBytes(edge)) } },
    { session },
  );
  if (moved.matchedCount !== 1) throw new Error(`the transparency log moved past ${idx} during the append`);
}

/** Activities read per batch while hashes are built from the history already stored. */
const BACKFILL_BATCH = 1_000;

/**
 * Builds the tree of a database written before the log existed, once, and makes its state document: the hashes of
 * every stored activity in idx order (idempotent upserts, outside a transaction, in batches), then the state in a
 * snapshot transaction that checks the log still has that many activities. Two processes starting at once write
 * the same hashes; one inserts the state, the other finds it. A new database gets the empty state. Processes of an
 * older version still appending meanwhile make the check fail (start-up stops with the reason): stop them first.
 * `fromScratch` rebuilds over whatever is there (the import's use).
 */
export async function ensureTransparencyLog(
  client: MongoClient,
  collections: MongoCollections,
  fromScratch = false,
): Promise<void> {
  const { tlogState, tlogHashes, activities } = collections;
  if (!fromScratch && (await tlogState.findOne({ _id: STATE }, { projection: { _id: 1 } }))) return;
  let edge: RightEdge = EMPTY_RIGHT_EDGE;
  for (;;) {
    const batch = await activities
      .find(
        { _id: { $gte: edge.size } },
        { sort: { _id: 1 }, limit: BACKFILL_BATCH, projection: { document: 1 } },
      )
      .toArray();
    const writes: AnyBulkWriteOperation<TlogHashDocument>[] = [];
    for (const { _id, document } of batch) {
      const appended = appendEntry(edge, _id, document);
      for (const doc of hashDocuments(appended.completed))
        writes.push({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } });
      edge = appended.edge;
    }
    if (writes.length > 0) await tlogHashes.bulkWrite(writes, { ordered: false });
    if (batch.length < BACKFILL_BATCH) break;
  }
  try {
    await transaction<void>(client, async (session) => {
      const existing = await tlogState.findOne({ _id: STATE }, { session });
      if (existing && !fromScratch) return;
      const stored = await activities.countDocuments({}, { session });
      if (stored !== edge.size)
        throw new Error(
          `the activity log grew from ${edge.size} to ${stored} entries while its transparency log was built: ` +
            'stop the L2 processes of earlier versions and start again',
        );
      const fields = { size: edge.size, edge: new Binary(edgeBytes(edge)) };
      if (existing) await tlogState.updateOne({ _id: STATE }, { $set: fields }, { session });
      else await tlogState.insertOne({ _id: STATE, ...fields, origin: null, checkpoint: null }, { session });
    });
  } catch (error) {
    // Another process inserted the state first (committed before this snapshot): its tree is the same.
    if (!isDuplicateKey(error)) throw error;
  }
}

export class MongoTransparencyLog implements TransparencyLogStore {
  constructor(private readonly collections: MongoCollections) {}

  async state(): Promise<TransparencyLogState> {
    const doc = await storeCall(() => this.collections.tlogState.findOne({ _id: STATE }));
    if (doc === null) throw new Error('the transparency log has no state document');
    return { size: doc.size, origin: doc.origin, checkpoint: doc.checkpoint };
  }

  async pinOrigin(origin: string): Promise<string> {
    const { tlogState } = this.collections;
    await storeCall(() => tlogState.updateOne({ _id: STATE, origin: null }, { $set: { origin } }));
    const doc = await storeCall(() => tlogState.findOne({ _id: STATE }, { projection: { origin: 1 } }));
    return doc?.origin ?? origin;
  }

  async hashes(level: number, first: number, count: number): Promise<Uint8Array[]> {
    const docs = await storeCall(() =>
      this.collections.tlogHashes
        .find(
          { _id: { $gte: tlogHashId(level, first), $lt: tlogHashId(level, first + count) } },
          { sort: { _id: 1 } },
        )
        .toArray(),
    );
    if (docs.length !== count)
      throw new LogDataMissingError(`level ${level} holds no hashes ${first}–${first + count - 1}`);
    return docs.map((doc) => plainBytes(doc.hash.buffer));
  }

  async entries(first: number, count: number): Promise<Uint8Array[]> {
    const docs = await storeCall(() =>
      this.collections.activities
        .find({ _id: { $gte: first, $lt: first + count } }, { sort: { _id: 1 }, projection: { document: 1 } })
        .toArray(),
    );
    if (docs.length !== count)
      throw new LogDataMissingError(`the log holds no entries ${first}–${first + count - 1}`);
    return docs.map((doc) => activityEntryBytes(doc.document));
  }

  async recordCheckpoint(checkpoint: SignedCheckpoint): Promise<boolean> {
    const { size, note } = checkpoint;
    const kept = await storeCall(() =>
      this.collections.tlogState.updateOne(
        { _id: STATE, $or: [{ checkpoint: null }, { 'checkpoint.size': { $lt: size } }] },
        { $set: { checkpoint: { size, note } } },
      ),
    );
    return kept.modifiedCount === 1;
  }
}
