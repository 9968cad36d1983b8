// Rule (API.md §8): tiles and entry bundles exactly as c2sp.org/tlog-tiles defines them, at their one path, and only
// those the latest checkpoint covers: anything else is not found. A resource's bytes never change once served (the
// log never forks), so they may be kept.
import {
  encodeEntryBundle,
  FULL_TILE_WIDTH,
  isWithinTree,
  parseTilePath,
  readTile,
  type TileResource,
} from '@l2/tlog';
import type { BoundedCache, CacheFactory } from '../../ports/bounded-cache.js';
import type { TransparencyLog } from '../../services/transparency/transparency-log.js';

export interface LogResource {
  readonly kind: 'tile' | 'entries';
  /** A full tile or bundle (256 wide), as opposed to a partial one. */
  readonly full: boolean;
  readonly bytes: Uint8Array;
}

/** Hash tiles kept in memory (8 KiB each at most): the top of a tree is asked for by every client. */
const KEPT_TILES = 1024;

export class GetLogResource {
  private readonly tiles: BoundedCache<string, Uint8Array>;

  constructor(
    private readonly log: TransparencyLog,
    caches: CacheFactory,
  ) {
    this.tiles = caches.create({ max: KEPT_TILES });
  }

  /** The resource at `path` (relative to the log's prefix: `tile/…`), or null for 404. */
  async execute(path: string): Promise<LogResource | null> {
    const resource = parseTilePath(path);
    if (resource === null || !(await this.covered(resource))) return null;
    const full = resource.width === FULL_TILE_WIDTH;
    if (resource.kind === 'entries') {
      const entries = await this.log.entries(resource.index * FULL_TILE_WIDTH, resource.width);
      return { kind: 'entries', full, bytes: encodeEntryBundle(entries) };
    }
    let bytes = this.tiles.get(path);
    if (!bytes) {
      bytes = await readTile(this.log.reader, resource);
      this.tiles.set(path, bytes);
    }
    return { kind: 'tile', full, bytes };
  }

  /** Whether the latest checkpoint covers it: the size seen last answers most requests without a store read. */
  private async covered(resource: TileResource): Promise<boolean> {
    if (isWithinTree(resource, this.log.latestSize())) return true;
    const latest = await this.log.latest();
    return latest !== null && isWithinTree(resource, latest.size);
  }
}
