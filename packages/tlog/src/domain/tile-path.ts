import { FULL_TILE_WIDTH, MAX_TILE_LEVEL } from './tile-constants.js';

/**
 * Tile and entry bundle coordinates and their paths, exactly as c2sp.org/tlog-tiles writes them:
 *
 *   tile/<L>/<N>[.p/<W>]       hashes of tile level L
 *   tile/entries/<N>[.p/<W>]   entry bundles
 *
 * <N> is written in 3-digit groups, all but the last prefixed with `x` (1234067 → x001/x234/067);
 * `.p/<W>` marks a partial tile of width 1–255. Parsing is strict so that every resource has
 * exactly one path: no leading zeros, no leading `x000` group, no `.p/256`.
 */

export interface HashTile {
  readonly kind: 'hashes';
  readonly level: number;
  readonly index: number;
  /** Number of hashes, 1–256; 256 is a full tile. */
  readonly width: number;
}

export interface EntryBundle {
  readonly kind: 'entries';
  readonly index: number;
  /** Number of entries, 1–256; 256 is a full bundle. */
  readonly width: number;
}

export type TileResource = HashTile | EntryBundle;

export const hashTile = (level: number, index: number, width: number): HashTile => ({
  kind: 'hashes',
  level,
  index,
  width,
});

export const entryBundle = (index: number, width: number): EntryBundle => ({ kind: 'entries', index, width });

/** The path of a tile or bundle, relative to the log's prefix (`tile/…`, no leading slash). */
export function formatTilePath(resource: TileResource): string {
  const { index, width } = resource;
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`bad tile index ${index}`);
  if (!Number.isInteger(width) || width < 1 || width > FULL_TILE_WIDTH) {
    throw new RangeError(`bad width ${width}`);
  }
  let level = 'entries';
  if (resource.kind === 'hashes') {
    if (!Number.isInteger(resource.level) || resource.level < 0 || resource.level > MAX_TILE_LEVEL) {
      throw new RangeError(`bad tile level ${resource.level}`);
    }
    level = String(resource.level);
  }
  return `tile/${level}/${formatTileIndex(index)}${width === FULL_TILE_WIDTH ? '' : `.p/${width}`}`;
}

function formatTileIndex(index: number): string {
  const groups = [String(index % 1000).padStart(3, '0')];
  for (let rest = Math.floor(index / 1000); rest > 0; rest = Math.floor(rest / 1000)) {
    groups.unshift(`x${String(rest % 1000).padStart(3, '0')}`);
  }
  return groups.join('/');
}

/** The resource a path names, or null when the path is not the one spelling tlog-tiles allows. */
export function parseTilePath(path: string): TileResource | null {
  const elements = path.split('/');
  if (elements.length < 3 || elements[0] !== 'tile') return null;
  const levelText = elements[1]!;
  let width = FULL_TILE_WIDTH;
  let indexElements = elements.slice(2);
  const partialMark = indexElements.length >= 2 ? indexElements[indexElements.length - 2]! : '';
  if (partialMark.endsWith('.p')) {
    const widthText = indexElements[indexElements.length - 1]!;
    if (!/^[1-9][0-9]{0,2}$/.test(widthText) || Number(widthText) >= FULL_TILE_WIDTH) return null;
    width = Number(widthText);
    indexElements = [...indexElements.slice(0, -2), partialMark.slice(0, -'.p'.length)];
  }
  const index = parseTileIndex(indexElements);
  if (index === null) return null;
  if (levelText === 'entries') return entryBundle(index, width);
  if (!/^(0|[1-9][0-9]?)$/.test(levelText) || Number(levelText) > MAX_TILE_LEVEL) return null;
  return hashTile(Number(levelText), index, width);
}

function parseTileIndex(elements: readonly string[]): number | null {
  if (elements.length === 0) return null;
  const last = elements[elements.length - 1]!;
  const leading = elements.slice(0, -1);
  if (!/^[0-9]{3}$/.test(last) || !leading.every((element) => /^x[0-9]{3}$/.test(element))) return null;
  if (leading[0] === 'x000') return null; // a leading zero group: another spelling of a shorter path
  let index = 0;
  for (const element of [...leading.map((group) => group.slice(1)), last])
    index = index * 1000 + Number(element);
  return Number.isSafeInteger(index) ? index : null;
}
