import type { SignedCheckpoint } from '../../../application/ports/transparency-log-store.js';
import { EMPTY_RIGHT_EDGE, type RightEdge, type RightEdgeAppend } from '@l2/tlog';
import { appendEntry } from '../transparency-hashes.js';

/**
 * The in-memory store's transparency log: the kept hashes by level (level 0: every leaf hash), the right edge, the
 * pinned origin and the latest checkpoint — what SQLite keeps in `tlog_hashes` and `tlog_state`.
 */
export class MemoryTransparencyTree {
  /** levels[L][i]: the hash at position i of tile level L. */
  readonly levels: Uint8Array[][] = [];
  edge: RightEdge = EMPTY_RIGHT_EDGE;
  origin: string | null = null;
  checkpoint: SignedCheckpoint | null = null;

  /** What adding entry `idx` would change; computed before the append's first write (it may throw). */
  prepare(idx: number, text: string): RightEdgeAppend {
    return appendEntry(this.edge, idx, text);
  }

  /** Applies what `prepare` computed. */
  apply({ edge, completed }: RightEdgeAppend): void {
    for (const { level, index, hash } of completed) {
      const hashes = (this.levels[level] ??= []);
      if (hashes.length !== index)
        throw new Error(`level ${level} holds ${hashes.length} hashes, not ${index}`);
      hashes.push(hash);
    }
    this.edge = edge;
  }
}
