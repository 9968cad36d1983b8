import { concatBytes } from './bytes.js';
import type { Sha256 } from './injected-crypto.js';
import { emptyTreeHash, HASH_SIZE, nodeHash } from './merkle-hash.js';
import { TILE_HEIGHT } from './tile-constants.js';

/**
 * The right edge (compact range) of the tree: the roots of the perfect subtrees that make up a tree
 * of `size` leaves, one per set bit of `size`, largest (leftmost) first. It is all an appender needs
 * to add a leaf and to compute the root, so the log needs no separate integrator: the store keeps
 * the edge next to the entries and updates both in the same transaction.
 */
export interface RightEdge {
  readonly size: number;
  readonly hashes: readonly Uint8Array[];
}

export const EMPTY_RIGHT_EDGE: RightEdge = { size: 0, hashes: [] };

/**
 * A hash the store keeps for good: the hash at `index` of tile level `level` (tlog-tiles), i.e. the
 * root of the perfect subtree of height 8·level over leaves [index·256^level, (index+1)·256^level).
 * Level 0 holds the leaf hashes.
 */
export interface TileLevelHash {
  readonly level: number;
  readonly index: number;
  readonly hash: Uint8Array;
}

export interface RightEdgeAppend {
  readonly edge: RightEdge;
  /** What became final with this leaf: always its leaf hash, plus the root of each tile it completed. */
  readonly completed: readonly TileLevelHash[];
}

/**
 * Appends one leaf. Merging follows the carries of `size + 1` in binary: each carry joins two equal
 * perfect subtrees, and a subtree whose height is a multiple of 8 is a finished hash of a tile level.
 */
export function appendToRightEdge(crypto: Sha256, edge: RightEdge, leaf: Uint8Array): RightEdgeAppend {
  if (leaf.length !== HASH_SIZE) throw new RangeError(`a leaf hash has ${HASH_SIZE} bytes`);
  if (!Number.isSafeInteger(edge.size + 1)) throw new RangeError('the tree is full');
  const size = edge.size + 1;
  const hashes = [...edge.hashes];
  const completed: TileLevelHash[] = [{ level: 0, index: edge.size, hash: leaf }];
  let merged = leaf;
  let height = 0;
  for (let rest = edge.size; rest % 2 === 1; rest = (rest - 1) / 2) {
    merged = nodeHash(crypto, hashes.pop()!, merged);
    height += 1;
    if (height % TILE_HEIGHT === 0) {
      completed.push({ level: height / TILE_HEIGHT, index: size / 2 ** height - 1, hash: merged });
    }
  }
  hashes.push(merged);
  return { edge: { size, hashes }, completed };
}

/** The tree's root: the edge's subtrees folded from the right, as RFC 6962's MTH splits them. */
export function rootOfRightEdge(crypto: Sha256, edge: RightEdge): Uint8Array {
  if (edge.hashes.length === 0) return emptyTreeHash(crypto);
  let root = edge.hashes[edge.hashes.length - 1]!;
  for (let i = edge.hashes.length - 2; i >= 0; i--) root = nodeHash(crypto, edge.hashes[i]!, root);
  return root;
}

/** The edge as bytes for a store (its hashes back to back; the size is stored beside it). */
export const encodeRightEdge = (edge: RightEdge): Uint8Array => concatBytes(edge.hashes);

/** The edge of a tree of `size` from `encodeRightEdge` bytes, or null when they cannot be that edge. */
export function decodeRightEdge(size: number, bytes: Uint8Array): RightEdge | null {
  if (!Number.isSafeInteger(size) || size < 0 || bytes.length !== setBits(size) * HASH_SIZE) return null;
  const hashes: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += HASH_SIZE) {
    hashes.push(bytes.slice(offset, offset + HASH_SIZE));
  }
  return { size, hashes };
}

/** How many perfect subtrees a tree of `size` leaves has (the ones in its binary writing). */
export function setBits(size: number): number {
  let count = 0;
  for (let rest = size; rest > 0; rest = Math.floor(rest / 2)) count += rest % 2;
  return count;
}
