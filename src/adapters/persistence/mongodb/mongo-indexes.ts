import { MongoServerError, type Collection, type Db, type Document, type IndexDescription } from 'mongodb';
import { oneLine } from './mongo-errors.js';

/** createIndexes refusals: an index of that name, or with those keys, exists already with another definition. */
const INDEX_OPTIONS_CONFLICT = 85;
const INDEX_KEY_SPECS_CONFLICT = 86;

/** Options that change what an index holds or answers; one present on the existing index but not ours conflicts. */
const DEFINING_OPTIONS = ['unique', 'sparse', 'expireAfterSeconds', 'partialFilterExpression', 'collation'];

/** Only the TTL differs: collMod changes it in place, without rebuilding the index. */
export interface TtlRepair {
  readonly kind: 'ttl';
  readonly name: string;
  readonly key: Document;
  readonly expireAfterSeconds: number;
}

/** Anything else: the operator drops the existing index, and L2 makes its own at the next start. */
export interface IndexConflict {
  readonly kind: 'conflict';
  readonly existing: string;
  readonly reason: string;
}

export type IndexRepair = TtlRepair | IndexConflict;

const keyText = (key: unknown): string =>
  JSON.stringify(Object.entries((key ?? {}) as Document).map(([field, order]) => [field, String(order)]));

const optionsOf = (index: Document): Document =>
  Object.fromEntries(
    DEFINING_OPTIONS.filter((o) => index[o] !== undefined && index[o] !== false).map((o) => [o, index[o]]),
  );

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares the wanted indexes with the collection's existing ones (as listIndexes gives them) and says, for each
 * wanted index that exists in another form — its name with other keys or options, or its keys under another
 * name — what to do about it. An empty answer: nothing of ours is in the way.
 */
export function indexRepairs(
  wanted: readonly IndexDescription[],
  existing: readonly Document[],
): IndexRepair[] {
  const repairs: IndexRepair[] = [];
  for (const index of wanted) {
    const name = String(index.name);
    const sameName = existing.find((e) => e.name === name);
    if (sameName === undefined) {
      const sameKey = existing.find((e) => keyText(e.key) === keyText(index.key));
      if (sameKey) {
        repairs.push({
          kind: 'conflict',
          existing: String(sameKey.name),
          reason: `has the keys L2 gives "${name}"`,
        });
      }
      continue;
    }
    if (keyText(sameName.key) !== keyText(index.key)) {
      repairs.push({
        kind: 'conflict',
        existing: name,
        reason: `has other keys (${JSON.stringify(sameName.key)}) than L2 needs`,
      });
      continue;
    }
    const { expireAfterSeconds: hadTtl, ...had } = optionsOf(sameName);
    const { expireAfterSeconds: wantTtl, ...want } = optionsOf(index as Document);
    if (same(had, want) && hadTtl === wantTtl) continue;
    if (same(had, want) && typeof hadTtl === 'number' && typeof wantTtl === 'number') {
      repairs.push({ kind: 'ttl', name, key: sameName.key as Document, expireAfterSeconds: wantTtl });
    } else {
      repairs.push({
        kind: 'conflict',
        existing: name,
        reason: `has other options (${JSON.stringify(optionsOf(sameName))}) than L2 needs`,
      });
    }
  }
  return repairs;
}

/** One line naming each index in the way, and the command that removes it. */
export function conflictMessage(collection: string, conflicts: readonly IndexConflict[]): string {
  return conflicts
    .map(
      (c) =>
        `index "${c.existing}" of collection "${collection}" ${c.reason}: drop it ` +
        `(db.getCollection("${collection}").dropIndex("${c.existing}")) and start L2 again, which makes its own`,
    )
    .join('; ');
}

const isIndexConflict = (error: unknown): boolean =>
  error instanceof MongoServerError &&
  (error.code === INDEX_OPTIONS_CONFLICT || error.code === INDEX_KEY_SPECS_CONFLICT);

/**
 * Creates `wanted` on `collection`; an index that exists with the same definition is left alone (createIndexes is
 * then a no-op). When the server refuses because one exists in another form (IndexOptionsConflict 85,
 * IndexKeySpecsConflict 86), a TTL that differs is changed in place with collMod; any other difference fails with
 * a message naming the index to drop — never dropped here, since a unique index gone even briefly lets duplicates in.
 */
export async function ensureIndexes(
  db: Db,
  collection: Pick<Collection, 'collectionName' | 'createIndexes' | 'listIndexes'>,
  wanted: readonly IndexDescription[],
): Promise<void> {
  if (wanted.length === 0) return;
  try {
    await collection.createIndexes([...wanted]);
    return;
  } catch (error) {
    if (!isIndexConflict(error)) throw error;
    const repairs = indexRepairs(wanted, await collection.listIndexes().toArray());
    const conflicts = repairs.filter((r): r is IndexConflict => r.kind === 'conflict');
    if (conflicts.length > 0) {
      throw new Error(conflictMessage(collection.collectionName, conflicts), { cause: error });
    }
    // Nothing we can name is in the way: the server's own message is the best explanation there is.
    if (repairs.length === 0) throw error;
    for (const repair of repairs) {
      if (repair.kind === 'ttl') await changeTtl(db, collection.collectionName, repair);
    }
  }
  await collection.createIndexes([...wanted]);
}

/**
 * collMod needs the dbAdmin role where createIndexes needs only readWrite: without it, the message says what to run
 * as a user who has it.
 */
async function changeTtl(
  db: Db,
  collection: string,
  { name, key, expireAfterSeconds }: TtlRepair,
): Promise<void> {
  try {
    await db.command({ collMod: collection, index: { keyPattern: key, expireAfterSeconds } });
  } catch (error) {
    throw new Error(
      `index "${name}" of collection "${collection}" must expire after ${expireAfterSeconds} s and could not be ` +
        `changed (${oneLine(error)}): run db.runCommand({ collMod: "${collection}", index: { name: "${name}", ` +
        `expireAfterSeconds: ${expireAfterSeconds} } }) as a user with the dbAdmin role, or drop the index, and ` +
        'start L2 again',
      { cause: error },
    );
  }
}
