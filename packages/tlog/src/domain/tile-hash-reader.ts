import { concatBytes } from './bytes.js';
import { HASH_SIZE } from './merkle-hash.js';
import type { StoredHashIndex, StoredHashReader } from './subtree-hashes.js';
import { FULL_TILE_WIDTH } from './tile-constants.js';
import { hashesOfTile, tileWidthInTree } from './tile-layout.js';
import { formatTilePath, hashTile, type HashTile } from './tile-path.js';

/**
 * Bridges kept hashes and tiles in both directions: a server builds a tile from its kept hashes,
 * a client reads kept hashes out of fetched tiles (like sumdb's TileHashReader). The client side
 * does not authenticate what it reads — a computation over its hashes is checked against a signed
 * root afterwards (an inclusion proof against the checkpoint, the tree hash against its root).
 */

/** Fetches a tile by its tlog-tiles path: its bytes, or null when the log answers "not found". */
export type FetchTile = (tile: HashTile, path: string) => Promise<Uint8Array | null>;

export class TileUnavailableError extends Error {
  constructor(
    readonly path: string,
    readonly reason: 'not_found' | 'wrong_size',
  ) {
    super(`tile ${path}: ${reason === 'not_found' ? 'not found' : 'not the size its path says'}`);
    this.name = 'TileUnavailableError';
  }
}

/** The bytes of a tile: its kept hashes back to back (what `GET tile/<L>/<N>[.p/<W>]` answers). */
export async function readTile(reader: StoredHashReader, tile: HashTile): Promise<Uint8Array> {
  const { level, first, count } = hashesOfTile(tile);
  const indexes = Array.from({ length: count }, (_, i) => ({ level, index: first + i }));
  return concatBytes(await reader.readHashes(indexes));
}

/** The hashes in a tile's bytes, or null when the length is not a whole number of hashes. */
export function hashesInTile(bytes: Uint8Array): Uint8Array[] | null {
  if (bytes.length === 0 || bytes.length % HASH_SIZE !== 0 || bytes.length > FULL_TILE_WIDTH * HASH_SIZE) {
    return null;
  }
  return Array.from({ length: bytes.length / HASH_SIZE }, (_, i) =>
    bytes.slice(i * HASH_SIZE, (i + 1) * HASH_SIZE),
  );
}

/**
 * Kept hashes of the tree of `size`, read from its tiles (each fetched at most once per reader,
 * at the width it has in that tree). Throws TileUnavailableError when a tile is missing or short.
 */
export function tileHashReader(size: number, fetchTile: FetchTile): StoredHashReader {
  const tiles = new Map<string, Promise<Uint8Array>>();
  const tileOf = (at: StoredHashIndex): { tile: HashTile; path: string } => {
    const index = Math.floor(at.index / FULL_TILE_WIDTH);
    const width = tileWidthInTree(size, at.level, index);
    if (width === 0 || at.index >= hashesAtLevelEnd(index, width)) {
      throw new RangeError(`hash ${at.index} of level ${at.level} is not in a tree of ${size}`);
    }
    const tile = hashTile(at.level, index, width);
    return { tile, path: formatTilePath(tile) };
  };
  const load = ({ tile, path }: { tile: HashTile; path: string }): Promise<Uint8Array> => {
    let pending = tiles.get(path);
    if (!pending) {
      pending = fetchTile(tile, path).then((bytes) => {
        if (bytes === null) throw new TileUnavailableError(path, 'not_found');
        if (bytes.length !== tile.width * HASH_SIZE) throw new TileUnavailableError(path, 'wrong_size');
        return bytes;
      });
      tiles.set(path, pending);
    }
    return pending;
  };
  return {
    async readHashes(indexes) {
      return Promise.all(
        indexes.map(async (at) => {
          const bytes = await load(tileOf(at));
          const offset = (at.index % FULL_TILE_WIDTH) * HASH_SIZE;
          return bytes.slice(offset, offset + HASH_SIZE);
        }),
      );
    },
  };
}

const hashesAtLevelEnd = (index: number, width: number): number => index * FULL_TILE_WIDTH + width;
