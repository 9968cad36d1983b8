/** One page of a list, newest first, with the cursors to the pages around it (API.md's list shape). */
export interface Page<T> {
  /** Newest first. */
  readonly items: T[];
  readonly total: number;
  /** Cursor for the next (older) page, or null on the last page. */
  readonly nextCursor: number | null;
  /** Cursor for the previous (newer) page, or null on the first page. */
  readonly prevCursor: number | null;
}
