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
 * another page follows, so no OFFSET and no extra count query is ever needed for the cursors.
 */
export async function paginate<T>(
  request: CursorRequest,
  seeks: Seeks<T>,
): Promise<Page<T> & { positions: number[] }> {
  const { limit } = request;
  let entries: Positioned<T>[];
  let newerExist: boolean;
  let olderExist: boolean;
  if (request.after !== undefined) {
    const found = await seeks.newer(request.after, limit + 1);
    newerExist = found.length > limit;
    entries = found.slice(0, limit).reverse();
    olderExist =
      entries.length > 0 ? (await seeks.older(entries[entries.length - 1]!.position, 1)).length > 0 : false;
  } else {
    const found = await seeks.older(request.before ?? null, limit + 1);
    olderExist = found.length > limit;
    entries = found.slice(0, limit);
    newerExist =
      request.before !== undefined && entries.length > 0
        ? (await seeks.newer(entries[0]!.position, 1)).length > 0
        : false;
  }
  return {
    items: entries.map((e) => e.value),
    positions: entries.map((e) => e.position),
    total: await seeks.count(),
    nextCursor: olderExist ? entries[entries.length - 1]!.position : null,
    prevCursor: newerExist ? entries[0]!.position : null,
  };
}
