import { tagKeysOf } from '../../../domain/tag-key.js';
import { arrayLiteral, type Queryable } from './postgres-sql.js';

// The tag index: `asset_tags (tag, seq)` holds each live asset's tag keys (tagKey: lower-cased in JavaScript, for
// every script) and `tag_counts` how many live assets carry each. Kept by the append in the transaction of the asset
// change, so a tag's page is a range of the primary key and its total one row, however large the registry. Each
// change is one statement, whatever the number of tags.

export const FILE_TAGS = `
  WITH filed AS (
    INSERT INTO asset_tags (tag, seq) SELECT tag, $2 FROM unnest($1::text[]) AS t(tag)
    ON CONFLICT DO NOTHING RETURNING tag)
  INSERT INTO tag_counts (tag, live_assets) SELECT tag, 1 FROM filed
  ON CONFLICT (tag) DO UPDATE SET live_assets = tag_counts.live_assets + 1`;

const UNFILE = `
  WITH unfiled AS (DELETE FROM asset_tags WHERE seq = $2 AND tag = ANY($1::text[]) RETURNING tag)
  UPDATE tag_counts SET live_assets = live_assets - 1 WHERE tag IN (SELECT tag FROM unfiled)`;

async function file(tx: Queryable, seq: number, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await tx.query(FILE_TAGS, [arrayLiteral(keys), seq]);
}

async function unfile(tx: Queryable, seq: number, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await tx.query(UNFILE, [arrayLiteral(keys), seq]);
}

/** Files a live asset under its tags. */
export const addToTagIndex = (tx: Queryable, seq: number, tags: readonly string[]): Promise<void> =>
  file(tx, seq, tagKeysOf(tags));

/** Takes an asset that stops being live out of the index. */
export const removeFromTagIndex = (tx: Queryable, seq: number, tags: readonly string[]): Promise<void> =>
  unfile(tx, seq, tagKeysOf(tags));

/** Moves a live asset from the tags it had to those it has. */
export async function retag(
  tx: Queryable,
  seq: number,
  before: readonly string[],
  after: readonly string[],
): Promise<void> {
  const [had, has] = [tagKeysOf(before), tagKeysOf(after)];
  await unfile(
    tx,
    seq,
    had.filter((key) => !has.includes(key)),
  );
  await file(
    tx,
    seq,
    has.filter((key) => !had.includes(key)),
  );
}

/** Live assets read per batch while the index is built. */
const BUILD_BATCH = 5_000;

/** Builds the tag index from the live assets, from nothing: an import runs it over the assets it wrote. */
export async function buildTagIndex(tx: Queryable): Promise<void> {
  await tx.query('DELETE FROM asset_tags');
  await tx.query('DELETE FROM tag_counts');
  for (let after = 0; ;) {
    const rows = await tx.query<{ seq: number; tags: string }>(
      'SELECT seq, tags FROM assets WHERE deleted_at IS NULL AND seq > $1 ORDER BY seq LIMIT $2',
      [after, BUILD_BATCH],
    );
    const tags: string[] = [];
    const seqs: number[] = [];
    for (const { seq, tags: json } of rows)
      for (const key of tagKeysOf(JSON.parse(json) as string[])) {
        tags.push(key);
        seqs.push(seq);
      }
    if (tags.length > 0)
      await tx.query(
        'INSERT INTO asset_tags (tag, seq) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING',
        [arrayLiteral(tags), arrayLiteral(seqs)],
      );
    const last = rows.at(-1);
    if (!last || rows.length < BUILD_BATCH) break;
    after = last.seq;
  }
  await tx.query(
    'INSERT INTO tag_counts (tag, live_assets) SELECT tag, COUNT(*) FROM asset_tags GROUP BY tag',
  );
}
