import type { Positioned } from '../../../application/ports/positioned.js';

/** An entry of a list kept in ascending position order. */
export interface Placed {
  readonly position: number;
}

/** The index of the first entry whose position is at least `position` (the length when there is none). */
function firstAtOrAbove(entries: readonly Placed[], position: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle]?.position ?? Infinity) < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Up to `limit` entries kept by `keep` and positioned below `before` (or the newest, with null), newest first:
 * a binary search to the start, then a walk that costs what it skips, as an index range scan would.
 */
export function seekOlder<E extends Placed, T>(
  entries: readonly E[],
  before: number | null,
  limit: number,
  keep: (entry: E) => boolean,
  value: (entry: E) => T,
): Positioned<T>[] {
  const found: Positioned<T>[] = [];
  const start = before === null ? entries.length : firstAtOrAbove(entries, before);
  for (let i = start - 1; i >= 0 && found.length < limit; i--) {
    const entry = entries[i];
    if (entry && keep(entry)) found.push({ position: entry.position, value: value(entry) });
  }
  return found;
}

/** Up to `limit` entries kept by `keep` and positioned above `after`, oldest first. */
export function seekNewer<E extends Placed, T>(
  entries: readonly E[],
  after: number,
  limit: number,
  keep: (entry: E) => boolean,
  value: (entry: E) => T,
): Positioned<T>[] {
  const found: Positioned<T>[] = [];
  const start = firstAtOrAbove(entries, after);
  for (let i = start; i < entries.length && found.length < limit; i++) {
    const entry = entries[i];
    if (entry && entry.position > after && keep(entry)) {
      found.push({ position: entry.position, value: value(entry) });
    }
  }
  return found;
}
