import type { Page } from '../domain/page.js';
import type { Positioned } from './ports/positioned.js';

export interface CursorRequest {
  readonly limit: number;
  readonly before?: number;
  readonly after?: number;
}

export interface Seeks<T> {
  older(before: number | null, limit: number): Promise<Positioned<T>[]>;
  newer(after: number, limit: number): Promise<Positioned<T>[]>;
  count(): Promise<number>;
}

/**
 * One page of a newest-first list by keyset seeks: asks for one entry more than the page to learn whether
 * another page follows, so no OFFSET and no extra count query is ever needed for the cursors. The seek, the probe
 * for the other direction and the count are asked at once, not one after the other: on a store behind a network
 * each is a round trip, and a deep page (which needs the probe) would otherwise take one more than the first.
 * Positions are integers, so "an entry newer than the page's newest" is "an entry at or above `before`" (the
 * page's newest is the greatest position below it), and likewise below `after`.
 */
export async function paginate<T>(
  request: CursorRequest,
  seeks: Seeks<T>,
): Promise<Page<T> & { positions: number[] }> {
  // One Promise.all: a store that fails fails the page once, and no question is left unawaited.
  const [{ entries, newerExist, olderExist }, total] = await Promise.all([
    pageOf(request, seeks),
    seeks.count(),
  ]);
  return {
    items: entries.map((e) => e.value),
    positions: entries.map((e) => e.position),
    total,
    nextCursor: olderExist ? entries[entries.length - 1]!.position : null,
    prevCursor: newerExist ? entries[0]!.position : null,
  };
}

/** The page's entries, and whether entries exist beyond each end of it. */
async function pageOf<T>(
  request: CursorRequest,
  seeks: Seeks<T>,
): Promise<{ entries: Positioned<T>[]; newerExist: boolean; olderExist: boolean }> {
  const { limit, before, after } = request;
  if (after !== undefined) {
    const [found, older] = await Promise.all([seeks.newer(after, limit + 1), seeks.older(after + 1, 1)]);
    const entries = found.slice(0, limit).reverse();
    return { entries, newerExist: found.length > limit, olderExist: entries.length > 0 && older.length > 0 };
  }
  const [found, newer] = await Promise.all([
    seeks.older(before ?? null, limit + 1),
    before === undefined ? [] : seeks.newer(before - 1, 1),
  ]);
  const entries = found.slice(0, limit);
  return { entries, newerExist: entries.length > 0 && newer.length > 0, olderExist: found.length > limit };
}
