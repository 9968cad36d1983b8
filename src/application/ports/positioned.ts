/** A list entry with its position in its list: what cursors are made of. */
export interface Positioned<T> {
  readonly position: number;
  readonly value: T;
}

/** The two seeks every cursor-paged list needs; both are indexed, so a deep page costs what the first does. */
export interface SeekableList<T, F> {
  /** Up to `limit` entries older than `before` (or the newest, with null), newest first. */
  listOlder(filter: F, before: number | null, limit: number): Promise<Positioned<T>[]>;
  /** Up to `limit` entries newer than `after`, OLDEST first (the caller reverses them). */
  listNewer(filter: F, after: number, limit: number): Promise<Positioned<T>[]>;
  /** How many entries match the filter. */
  count(filter: F): Promise<number>;
}
