import {
  appendToRightEdge,
  bytesEqual,
  EMPTY_RIGHT_EDGE,
  hexOf,
  leafHash,
  rootOfRightEdge,
  type RightEdge,
  type Sha256,
  type TileLevelHash,
} from '@l2/tlog';
import type { CheckedTree } from '../../ports/full-log-check.js';
import { LogDataMissingError, type TransparencyLogStore } from '../../ports/transparency-log-store.js';

/** The store no longer holds what was signed, or its hashes do not match its entries: nothing may be signed. */
export class LogInconsistency extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogInconsistency';
  }
}

/**
 * Entries read per store call while the tree is extended: about half a megabyte of documents, short-lived enough to
 * die in the young generation, so that checking a log of millions leaves the heap as small as it was.
 */
const BATCH = 256;
/** Roots remembered at marked sizes: enough for the checkpoints of the last rounds. */
const REMEMBERED_ROOTS = 64;

/**
 * The tree this process has checked itself: its right edge, built from the stored entries it read — each entry's
 * leaf hash recomputed and compared with the stored one, each tile hash the entries complete compared with the
 * stored one — never from the stored edge. What this process signs is the root of this tree, so a changed entry,
 * a changed hash or a rewritten history is never signed over: it stops the extension with a LogInconsistency.
 */
export class VerifiedTree {
  private edge: RightEdge = EMPTY_RIGHT_EDGE;
  /** Roots at sizes other code asked to be remembered (the checkpoints met), to check checkpoints against later. */
  private readonly roots = new Map<number, Uint8Array>();

  constructor(
    private readonly store: TransparencyLogStore,
    private readonly crypto: Sha256,
    /** Lets other work run between batches (a start-up check reads the whole log). */
    private readonly pause: () => Promise<void>,
  ) {}

  get size(): number {
    return this.edge.size;
  }

  root(): Uint8Array {
    return rootOfRightEdge(this.crypto, this.edge);
  }

  /** The root at `size` if this tree passed it and remembered it (a size marked in extendTo, or the current one). */
  rootAt(size: number): Uint8Array | undefined {
    return size === this.edge.size ? this.root() : this.roots.get(size);
  }

  /**
   * Extends the tree to `target` entries, checking every entry and hash on the way; at each size in `marks` the
   * root is remembered (and returned by rootAt). Throws LogInconsistency at the first mismatch, leaving the tree
   * where it was checked last.
   */
  async extendTo(target: number, marks: readonly number[] = []): Promise<void> {
    if (target < this.edge.size) {
      throw new LogInconsistency(
        `the store holds ${target} entries, fewer than the ${this.edge.size} this process has checked`,
      );
    }
    const wanted = new Set(marks);
    if (wanted.has(this.edge.size)) this.remember(this.edge.size, this.root());
    while (this.edge.size < target) {
      const first = this.edge.size;
      const count = Math.min(BATCH, target - first);
      const [entries, stored] = await missingIsInconsistent(() =>
        Promise.all([this.store.entries(first, count), this.store.hashes(0, first, count)]),
      );
      let edge = this.edge;
      const completed: TileLevelHash[] = [];
      const rootsHere = new Map<number, Uint8Array>();
      for (let i = 0; i < count; i++) {
        const leaf = leafHash(this.crypto, entries[i]!);
        if (!bytesEqual(leaf, stored[i]!)) {
          throw new LogInconsistency(
            `activity ${first + i} is not the entry that was logged: its bytes hash to ${hexOf(leaf)}, ` +
              `its stored leaf hash is ${hexOf(stored[i]!)}`,
          );
        }
        const appended = appendToRightEdge(this.crypto, edge, leaf);
        for (const hash of appended.completed) if (hash.level > 0) completed.push(hash);
        edge = appended.edge;
        if (wanted.has(edge.size)) rootsHere.set(edge.size, rootOfRightEdge(this.crypto, edge));
      }
      await this.compareStored(completed);
      this.edge = edge;
      for (const [size, root] of rootsHere) this.remember(size, root);
      if (this.edge.size < target) await this.pause();
    }
  }

  /** What this tree has checked so far: its edge and the roots it remembers (handed over by a FullLogCheck). */
  checked(): CheckedTree {
    return { edge: this.edge, roots: [...this.roots] };
  }

  /**
   * Takes over the tree a FullLogCheck built from the same store — the same extendTo, run in another process —
   * instead of reading the entries here. Only from the empty tree: what this process checked itself stays.
   */
  adopt(tree: CheckedTree): void {
    if (this.edge.size !== 0) throw new Error(`a tree of ${this.edge.size} entries is checked already`);
    this.edge = tree.edge;
    for (const [size, root] of tree.roots) this.remember(size, root);
  }

  private remember(size: number, root: Uint8Array): void {
    this.roots.set(size, root);
    if (this.roots.size > REMEMBERED_ROOTS) this.roots.delete(this.roots.keys().next().value!);
  }

  /** Compares the tile hashes the entries completed with the stored ones, one range read per level. */
  private async compareStored(completed: readonly TileLevelHash[]): Promise<void> {
    const byLevel = new Map<number, TileLevelHash[]>();
    for (const hash of completed) byLevel.set(hash.level, [...(byLevel.get(hash.level) ?? []), hash]);
    for (const [level, hashes] of byLevel) {
      const first = hashes[0]!.index;
      const stored = await missingIsInconsistent(() => this.store.hashes(level, first, hashes.length));
      hashes.forEach(({ index, hash }, i) => {
        if (index !== first + i || !bytesEqual(hash, stored[i]!)) {
          throw new LogInconsistency(
            `the stored hash ${index} of tile level ${level} is not the one its entries give`,
          );
        }
      });
    }
  }
}

/** Entries or hashes the store should hold and does not: the log was cut, which is an inconsistency too. */
async function missingIsInconsistent<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof LogDataMissingError) throw new LogInconsistency(error.message);
    throw error;
  }
}
