import type { Sha256 } from './injected-crypto.js';
import { emptyTreeHash, HASH_SIZE, nodeHash } from './merkle-hash.js';
import type { RightEdge } from './right-edge.js';
import { FULL_TILE_WIDTH, TILE_HEIGHT } from './tile-constants.js';

/**
 * Any subtree hash of the tree, computed from the hashes a tiled log keeps (those of tile levels:
 * leaf hashes at level 0, roots of 256-leaf subtrees at level 1, …). A perfect subtree of height
 * 8·L + r is rebuilt from 2^r hashes of level L (at most 128), so no intermediate node is stored.
 */

/** The position of a kept hash: `index` within tile level `level` (see TileLevelHash). */
export interface StoredHashIndex {
  readonly level: number;
  readonly index: number;
}

/**
 * Where kept hashes come from: a store, or tiles fetched from a log (`tileHashReader`). One call per
 * computation, so a database or the network is asked once. Answers in the order asked; throws when
 * a hash is missing rather than answering fewer.
 */
export interface StoredHashReader {
  readHashes(indexes: readonly StoredHashIndex[]): Promise<readonly Uint8Array[]> | readonly Uint8Array[];
}

/** The leaves [start, end) of a subtree, as RFC 6962's MTH(D[start:end]). */
export interface LeafSpan {
  readonly start: number;
  readonly end: number;
}

interface PerfectSubtree {
  readonly start: number;
  readonly height: number;
}

/**
 * The perfect subtrees a span is made of, left to right. For the spans of RFC 6962 (whose start is
 * a multiple of the next power of two above their length) this is the split MTH makes, so folding
 * their hashes from the right gives MTH of the span.
 */
function perfectSubtreesOf({ start, end }: LeafSpan): PerfectSubtree[] {
  const subtrees: PerfectSubtree[] = [];
  for (let at = start; at < end;) {
    let height = 0;
    while (at % 2 ** (height + 1) === 0 && at + 2 ** (height + 1) <= end) height++;
    subtrees.push({ start: at, height });
    at += 2 ** height;
  }
  return subtrees;
}

function keptHashesOf(subtree: PerfectSubtree): StoredHashIndex[] {
  const level = Math.floor(subtree.height / TILE_HEIGHT);
  const count = 2 ** (subtree.height - level * TILE_HEIGHT);
  const first = subtree.start / FULL_TILE_WIDTH ** level;
  return Array.from({ length: count }, (_, i) => ({ level, index: first + i }));
}

/** Every kept hash that computing these spans reads (a client can fetch their tiles ahead). */
export const keptHashesOfSpans = (spans: readonly LeafSpan[]): StoredHashIndex[] => {
  spans.forEach(checkSpan);
  return spans.flatMap(perfectSubtreesOf).flatMap(keptHashesOf);
};

const keyOf = (at: StoredHashIndex): string => `${at.level}/${at.index}`;

async function readAll(reader: StoredHashReader, needed: readonly StoredHashIndex[]) {
  const unique = [...new Map(needed.map((at) => [keyOf(at), at])).values()];
  const hashes = await reader.readHashes(unique);
  if (hashes.length !== unique.length || hashes.some((hash) => hash.length !== HASH_SIZE)) {
    throw new Error('the hash reader answered fewer hashes than asked, or hashes of the wrong size');
  }
  return new Map(unique.map((at, i) => [keyOf(at), hashes[i]!]));
}

function hashOfPerfectSubtree(crypto: Sha256, subtree: PerfectSubtree, known: Map<string, Uint8Array>) {
  let layer = keptHashesOf(subtree).map((at) => known.get(keyOf(at))!);
  while (layer.length > 1) {
    layer = Array.from({ length: layer.length / 2 }, (_, i) =>
      nodeHash(crypto, layer[2 * i]!, layer[2 * i + 1]!),
    );
  }
  return layer[0]!;
}

function checkSpan({ start, end }: LeafSpan): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end <= start) {
    throw new RangeError(`bad leaf span [${start}, ${end})`);
  }
}

/** MTH(D[start:end]) of each span, reading every kept hash they need in one call. */
export async function spanHashes(
  crypto: Sha256,
  reader: StoredHashReader,
  spans: readonly LeafSpan[],
): Promise<Uint8Array[]> {
  spans.forEach(checkSpan);
  const subtreesPerSpan = spans.map(perfectSubtreesOf);
  const known = await readAll(reader, subtreesPerSpan.flat().flatMap(keptHashesOf));
  return subtreesPerSpan.map((subtrees) => {
    const hashes = subtrees.map((subtree) => hashOfPerfectSubtree(crypto, subtree, known));
    let hash = hashes[hashes.length - 1]!;
    for (let i = hashes.length - 2; i >= 0; i--) hash = nodeHash(crypto, hashes[i]!, hash);
    return hash;
  });
}

/** The root of the tree's first `size` leaves (any size up to the current one). */
export async function treeHash(crypto: Sha256, reader: StoredHashReader, size: number): Promise<Uint8Array> {
  if (size === 0) return emptyTreeHash(crypto);
  const [root] = await spanHashes(crypto, reader, [{ start: 0, end: size }]);
  return root!;
}

/** The right edge of the tree's first `size` leaves, rebuilt from kept hashes (to check or restore a stored one). */
export async function rightEdgeAt(
  crypto: Sha256,
  reader: StoredHashReader,
  size: number,
): Promise<RightEdge> {
  if (size === 0) return { size, hashes: [] };
  const spans = perfectSubtreesOf({ start: 0, end: size }).map((s) => ({
    start: s.start,
    end: s.start + 2 ** s.height,
  }));
  return { size, hashes: await spanHashes(crypto, reader, spans) };
}
