import { tagKeysOf } from '../../../domain/tag-key.js';
import type { StoredAsset } from './memory-database.js';

/**
 * The live assets of each tag key (see tagKey), in registration order: what SQLite's `asset_tags` is, so that a
 * tag's page walks its own assets rather than the whole registry. An asset is filed while it is live, under the tags
 * it has: take it out before it changes, file it again after.
 */
export class MemoryTagIndex {
  private readonly byKey = new Map<string, StoredAsset[]>();

  /** The live assets filed under `key`, in position order. */
  assetsOf(key: string): readonly StoredAsset[] {
    return this.byKey.get(key) ?? [];
  }

  file(stored: StoredAsset): void {
    if (stored.asset.deletedAt !== null) return;
    for (const key of tagKeysOf(stored.asset.tags)) {
      const list = this.byKey.get(key) ?? [];
      list.splice(firstAbove(list, stored.position), 0, stored);
      this.byKey.set(key, list);
    }
  }

  unfile(stored: StoredAsset): void {
    if (stored.asset.deletedAt !== null) return;
    for (const key of tagKeysOf(stored.asset.tags)) {
      const list = this.byKey.get(key) ?? [];
      const at = list.indexOf(stored);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.byKey.delete(key);
    }
  }
}

/** The index in `list` (ascending positions) where an entry at `position` goes. */
function firstAbove(list: readonly StoredAsset[], position: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle]?.position ?? Infinity) < position) low = middle + 1;
    else high = middle;
  }
  return low;
}
