import type { Collection, Document, Filter, FindCursor, Sort, WithId } from 'mongodb';
import { prefixSuccessor } from '../prefix-successor.js';

export { prefixSuccessor };

/** The range of strings starting with `prefix`, as a filter on one field. */
export function prefixRange(prefix: string): { $gte: string; $lt?: string } {
  const successor = prefixSuccessor(prefix);
  return successor === null ? { $gte: prefix } : { $gte: prefix, $lt: successor };
}

/** One seek of a cursor-paged list: the bound on the position field and the order to read in. */
export interface Seek {
  /** Entries below `position` (or every entry, with null), newest first; or entries above it, oldest first. */
  readonly direction: 'older' | 'newer';
  readonly position: number | null;
  readonly limit: number;
}

/**
 * A seek as an index range scan on `field`: a bound, a sort on the same field and a limit, never a skip, so a deep
 * page costs what the first does. Exported so that tests can explain the plan of exactly what {@link seek} runs.
 */
export function seekCursor<D extends Document>(
  collection: Collection<D>,
  filter: Filter<D>,
  field: string,
  { direction, position, limit }: Seek,
  hint?: string,
): FindCursor<WithId<D>> {
  const bound =
    position === null ? {} : { [field]: direction === 'older' ? { $lt: position } : { $gt: position } };
  const sort: Sort = { [field]: direction === 'older' ? -1 : 1 };
  const cursor = collection
    .find({ ...filter, ...bound } as Filter<D>)
    .sort(sort)
    .limit(limit);
  return hint === undefined ? cursor : cursor.hint(hint);
}

/**
 * Runs a seek (through the index named by `hint`, when given); a limit of 0 or less reads nothing (MongoDB would read
 * 0 as "no limit", a negative as one batch).
 */
export async function seek<D extends Document>(
  collection: Collection<D>,
  filter: Filter<D>,
  field: string,
  how: Seek,
  hint?: string,
): Promise<WithId<D>[]> {
  if (how.limit <= 0) return [];
  return seekCursor(collection, filter, field, how, hint).toArray();
}
