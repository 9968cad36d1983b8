import { FULL_TILE_WIDTH } from './tile-constants.js';
import { entryBundle, hashTile, type EntryBundle, type HashTile, type TileResource } from './tile-path.js';

/**
 * Which tiles a tree has (c2sp.org/tlog-tiles). A tile of level L holds consecutive hashes of
 * subtrees of 256^L leaves; level L of a tree of size S has floor(S / 256^L) such hashes, cut into
 * full tiles of 256 and, on the right, one partial tile of the remainder (none when it is 0).
 */

/** How many hashes tile level `level` has in a tree of `size` leaves. */
export const hashesAtLevel = (size: number, level: number): number =>
  Math.floor(size / FULL_TILE_WIDTH ** level);

/**
 * The width of tile `index` of level `level` in a tree of `size`, or 0 when the tree has no such tile.
 * Entry bundles have the widths of level 0.
 */
export function tileWidthInTree(size: number, level: number, index: number): number {
  const remaining = hashesAtLevel(size, level) - index * FULL_TILE_WIDTH;
  return remaining <= 0 ? 0 : Math.min(remaining, FULL_TILE_WIDTH);
}

/**
 * True when the tree of `size` vouches for the resource: its hashes (or entries) all exist in that
 * tree. Besides the tree's own tiles this admits the narrower partial tiles of earlier sizes, which
 * tlog-tiles asks logs to keep serving for clients of older checkpoints.
 */
export function isWithinTree(resource: TileResource, size: number): boolean {
  const level = resource.kind === 'hashes' ? resource.level : 0;
  return resource.index * FULL_TILE_WIDTH + resource.width <= hashesAtLevel(size, level);
}

/** Every hash tile of the tree of `size`, level by level, left to right. */
export const hashTilesOfTree = (size: number): HashTile[] => newHashTiles(0, size);

/**
 * The hash tiles of the tree of `newSize` that the tree of `oldSize` did not have: full tiles it
 * completed and, per level, the right partial tile when it changed.
 */
export function newHashTiles(oldSize: number, newSize: number): HashTile[] {
  const tiles: HashTile[] = [];
  for (let level = 0; hashesAtLevel(newSize, level) > 0; level++) {
    for (const [index, width] of newTilesOfLevel(
      hashesAtLevel(oldSize, level),
      hashesAtLevel(newSize, level),
    )) {
      tiles.push(hashTile(level, index, width));
    }
  }
  return tiles;
}

/** Every entry bundle of the tree of `size`. */
export const entryBundlesOfTree = (size: number): EntryBundle[] => newEntryBundles(0, size);

/** The entry bundles of the tree of `newSize` that the tree of `oldSize` did not have. */
export const newEntryBundles = (oldSize: number, newSize: number): EntryBundle[] =>
  newTilesOfLevel(oldSize, newSize).map(([index, width]) => entryBundle(index, width));

function newTilesOfLevel(oldCount: number, newCount: number): Array<[index: number, width: number]> {
  const tiles: Array<[number, number]> = [];
  if (newCount <= oldCount) return tiles;
  const firstChanged = Math.floor(oldCount / FULL_TILE_WIDTH);
  const fullTiles = Math.floor(newCount / FULL_TILE_WIDTH);
  for (let index = firstChanged; index < fullTiles; index++) tiles.push([index, FULL_TILE_WIDTH]);
  const partialWidth = newCount % FULL_TILE_WIDTH;
  if (partialWidth > 0) tiles.push([fullTiles, partialWidth]);
  return tiles;
}

/** The stored hashes a tile is made of: `width` consecutive hashes of its level from `first`. */
export const hashesOfTile = (tile: HashTile): { level: number; first: number; count: number } => ({
  level: tile.level,
  first: tile.index * FULL_TILE_WIDTH,
  count: tile.width,
});
