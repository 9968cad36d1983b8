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
  const { limit } = request;
  const total = seeks.count();
  let entries: Positioned<T>[];
  let newerExist: boolean;
  let olderExist: boolean;
  if (request.after !== undefined) {
    const [found, older] = await Promise.all([
      seeks.newer(request.after, limit + 1),
      seeks.older(request.after + 1, 1),
    ]);
    newerExist = found.length > limit;
    entries = found.slice(0, limit).reverse();
    olderExist = entries.length > 0 && older.length > 0;
  } else {
    const { before } = request;
    const [found, newer] = await Promise.all([
      seeks.older(before ?? null, limit + 1),
      before === undefined ? [] : seeks.newer(before - 1, 1),
    ]);
    olderExist = found.length > limit;
    entries = found.slice(0, limit);
    newerExist = entries.length > 0 && newer.length > 0;
  }
  return {
    items: entries.map((e) => e.value),
    positions: entries.map((e) => e.position),
    total: await total,
    nextCursor: olderExist ? entries[entries.length - 1]!.position : null,
    prevCursor: newerExist ? entries[0]!.position : null,
  };
}
