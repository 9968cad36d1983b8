import { bytesEqual, concatBytes } from './bytes.js';
import { decodeEntryBundle } from './entry-bundle.js';
import type { Sha256 } from './injected-crypto.js';
import { HASH_SIZE, leafHash, nodeHash } from './merkle-hash.js';
import { err, ok, type Result } from './result.js';
import { FULL_TILE_WIDTH } from './tile-constants.js';
import { hashesInTile } from './tile-hash-reader.js';
import { hashesAtLevel, newEntryBundles, newHashTiles } from './tile-layout.js';
import { formatTilePath, hashTile, type HashTile } from './tile-path.js';

/**
 * A monitor's check that the log's tiles say what its entries say: every tile the tree of `size`
 * has and the tree of `fromSize` had not is rebuilt — level 0 from the entry bundles, each level
 * above from the roots of the full tiles below — and compared byte for byte with the served tile.
 *
 * A new tile may also hold hashes of subtrees already complete at `fromSize` (the old right
 * partial tile grows); those are taken as served here. The caller binds them by checking that
 * the new tiles give the old tree's root (consistency), which commits to exactly those hashes.
 */

/** Fetches a log resource by path relative to its prefix: the bytes, or null for "not found". */
export type FetchLogResource = (path: string) => Promise<Uint8Array | null>;

export type TileCheckFailure =
  | { readonly type: 'resource_unavailable'; readonly path: string }
  | { readonly type: 'resource_malformed'; readonly path: string; readonly reason: string }
  | { readonly type: 'tile_mismatch'; readonly path: string };

export interface TileCheck {
  readonly checkedTiles: number;
  readonly checkedEntries: number;
  /** The served bytes of the checked tiles whose paths were asked for in `keep`. */
  readonly kept: ReadonlyMap<string, Uint8Array>;
}

export interface TileCheckInput {
  readonly crypto: Sha256;
  readonly fetch: FetchLogResource;
  readonly fromSize: number;
  readonly size: number;
  /** Paths of tiles whose checked bytes the caller needs afterwards (to compute roots from them). */
  readonly keep: ReadonlySet<string>;
  /** How many resources to fetch at once. */
  readonly concurrency: number;
}

/** MTH of the 2^k hashes of a full tile (or any power-of-two run of sibling subtrees). */
function rootOfHashes(crypto: Sha256, hashes: readonly Uint8Array[]): Uint8Array {
  let layer = hashes;
  while (layer.length > 1) {
    layer = Array.from({ length: layer.length / 2 }, (_, i) =>
      nodeHash(crypto, layer[2 * i]!, layer[2 * i + 1]!),
    );
  }
  return layer[0]!;
}

async function inBatches<T>(
  items: readonly T[],
  size: number,
  check: (item: T) => Promise<TileCheckFailure | null>,
) {
  for (let i = 0; i < items.length; i += size) {
    const failures = await Promise.all(items.slice(i, i + size).map(check));
    const failure = failures.find((found) => found !== null);
    if (failure) return failure;
  }
  return null;
}

export async function checkTilesAgainstEntries(
  input: TileCheckInput,
): Promise<Result<TileCheck, TileCheckFailure>> {
  const { crypto, fetch, fromSize, size, keep, concurrency } = input;
  const kept = new Map<string, Uint8Array>();
  let checkedTiles = 0;
  let checkedEntries = 0;

  const compare = async (
    tile: HashTile,
    expected: readonly Uint8Array[],
    served: Uint8Array,
    roots: Map<number, Uint8Array>,
  ) => {
    const path = formatTilePath(tile);
    if (!bytesEqual(concatBytes(expected), served)) return { type: 'tile_mismatch' as const, path };
    if (tile.width === FULL_TILE_WIDTH) roots.set(tile.index, rootOfHashes(crypto, expected));
    if (keep.has(path)) kept.set(path, served);
    checkedTiles += 1;
    return null;
  };
  const fetchTile = async (tile: HashTile): Promise<Uint8Array | TileCheckFailure> => {
    const path = formatTilePath(tile);
    const served = await fetch(path);
    if (served === null) return { type: 'resource_unavailable', path };
    if (served.length !== tile.width * HASH_SIZE) {
      return { type: 'resource_malformed', path, reason: 'wrong size' };
    }
    return served;
  };

  const leafRoots = new Map<number, Uint8Array>();
  const leafFailure = await inBatches(newEntryBundles(fromSize, size), concurrency, async (bundle) => {
    const path = formatTilePath(bundle);
    const bytes = await fetch(path);
    if (bytes === null) return { type: 'resource_unavailable', path };
    const entries = decodeEntryBundle(bytes);
    if (entries === null || entries.length !== bundle.width) {
      return { type: 'resource_malformed', path, reason: `expected ${bundle.width} length-prefixed entries` };
    }
    const tile = hashTile(0, bundle.index, bundle.width);
    const served = await fetchTile(tile);
    if (!(served instanceof Uint8Array)) return served;
    checkedEntries += entries.length;
    return compare(
      tile,
      entries.map((entry) => leafHash(crypto, entry)),
      served,
      leafRoots,
    );
  });
  if (leafFailure) return err(leafFailure);

  /** Roots of the full tiles rebuilt on the level below, by tile index. */
  let rootsBelow = leafRoots;

  const tilesAbove = newHashTiles(fromSize, size).filter((tile) => tile.level > 0);
  for (let level = 1; hashesAtLevel(size, level) > 0; level++) {
    const alreadyComplete = hashesAtLevel(fromSize, level);
    const roots = new Map<number, Uint8Array>();
    const below = rootsBelow;
    const failure = await inBatches(
      tilesAbove.filter((tile) => tile.level === level),
      concurrency,
      async (tile) => {
        const served = await fetchTile(tile);
        if (!(served instanceof Uint8Array)) return served;
        const servedHashes = hashesInTile(served)!;
        const expected = servedHashes.map((servedHash, i) => {
          const index = tile.index * FULL_TILE_WIDTH + i;
          const rebuilt = below.get(index);
          if (rebuilt) return rebuilt;
          if (index < alreadyComplete) return servedHash; // complete before: bound by the consistency check
          throw new Error(`tile ${formatTilePath(tile)}: no rebuilt root for hash ${index}`);
        });
        return compare(tile, expected, served, roots);
      },
    );
    if (failure) return err(failure);
    rootsBelow = roots;
  }
  return ok({ checkedTiles, checkedEntries, kept });
}
