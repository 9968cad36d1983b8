import type { Database } from 'better-sqlite3';
import { tagKeysOf } from '../../../domain/tag-key.js';

/**
 * The tag index: `asset_tags (tag, seq)` holds each live asset's tag keys (tagKey: lower-cased in JavaScript, which
 * lower-cases every script where SQLite's lower() folds only ASCII) and `tag_counts` how many live assets carry each.
 * Kept by the append in the transaction of the asset change, so a tag's page is a range of the primary key and its
 * total one row, however large the registry.
 */
export interface TagIndex {
  /** Files a live asset under its tags. */
  add(seq: number, tags: readonly string[]): void;
  /** Takes an asset that stops being live out of the index. */
  remove(seq: number, tags: readonly string[]): void;
  /** Moves a live asset from the tags it had to those it has. */
  retag(seq: number, before: readonly string[], after: readonly string[]): void;
}

export function prepareTagIndex(db: Database): TagIndex {
  const insert = db.prepare<[string, number]>('INSERT OR IGNORE INTO asset_tags (tag, seq) VALUES (?, ?)');
  const remove = db.prepare<[string, number]>('DELETE FROM asset_tags WHERE tag = ? AND seq = ?');
  const count = db.prepare<{ tag: string; delta: number }>(`
    INSERT INTO tag_counts (tag, live_assets) VALUES (@tag, @delta)
    ON CONFLICT (tag) DO UPDATE SET live_assets = live_assets + @delta`);
  const file = (seq: number, keys: readonly string[]) => {
    for (const tag of keys) if (insert.run(tag, seq).changes === 1) count.run({ tag, delta: 1 });
  };
  const unfile = (seq: number, keys: readonly string[]) => {
    for (const tag of keys) if (remove.run(tag, seq).changes === 1) count.run({ tag, delta: -1 });
  };
  return {
    add: (seq, tags) => file(seq, tagKeysOf(tags)),
    remove: (seq, tags) => unfile(seq, tagKeysOf(tags)),
    retag: (seq, before, after) => {
      const [had, has] = [tagKeysOf(before), tagKeysOf(after)];
      unfile(
        seq,
        had.filter((key) => !has.includes(key)),
      );
      file(
        seq,
        has.filter((key) => !had.includes(key)),
      );
    },
  };
}

/** Live assets read per batch while the index is built: a bounded read however large the registry. */
const BUILD_BATCH = 5_000;

/**
 * Builds the tag index from the live assets, from nothing: run by migration 8 over the assets already there and by
 * an import over the assets it wrote, inside their transactions.
 */
export function buildTagIndex(db: Database): void {
  db.exec('DELETE FROM asset_tags; DELETE FROM tag_counts;');
  const index = prepareTagIndex(db);
  const batch = db.prepare<[number, number], { seq: number; tags: string }>(
    'SELECT seq, tags FROM assets WHERE deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?',
  );
  for (let after = 0; ;) {
    const rows = batch.all(after, BUILD_BATCH);
    for (const { seq, tags } of rows) index.add(seq, JSON.parse(tags) as string[]);
    const last = rows.at(-1);
    if (!last || rows.length < BUILD_BATCH) return;
    after = last.seq;
  }
}
