import type { RightEdge } from '@l2/tlog';

/** The tree a whole-log check reached: its right edge, and the roots at the sizes it was asked to remember. */
export interface CheckedTree {
  readonly edge: RightEdge;
  readonly roots: ReadonlyArray<readonly [size: number, root: Uint8Array]>;
}

/**
 * The start-up check of the whole log (VerifiedTree.extendTo from the empty tree: every entry, leaf hash and tile
 * hash compared), run outside this process — the SQLite store runs it in a short-lived child process with its own
 * connection. Reading every entry once leaves the reader's memory larger for good (SQLite's page cache filled,
 * freed row buffers that glibc keeps but cannot return); in a process that exits afterwards, none of it stays.
 * Rejects with a LogInconsistency at the first mismatch, with another error when the store could not be read.
 */
export interface FullLogCheck {
  /** Logs smaller than this are checked in this process: starting another costs more than they leave behind. */
  readonly minSize: number;
  check(size: number, marks: readonly number[]): Promise<CheckedTree>;
}
