// Rule (API.md §8): tiles and entry bundles exactly as c2sp.org/tlog-tiles defines them, at their one path, and only
// those the latest checkpoint covers: anything else is not found. A resource's bytes never change once served (the
// log never forks), so they may be kept. Entry bundles are gzip-encoded for a client that takes gzip; one that
// needs building while too many are being built is refused (EntryBundles).
import { err, ok, type Result } from '../../../domain/result.js';
import { FULL_TILE_WIDTH, isWithinTree, parseTilePath, readTile, type TileResource } from '@l2/tlog';
import type { BoundedCache, CacheFactory } from '../../ports/bounded-cache.js';
import type { BundleRefusal, EntryBundles } from '../../services/transparency/entry-bundles.js';
import type { TransparencyLog } from '../../services/transparency/transparency-log.js';

export interface LogResource {
  readonly kind: 'tile' | 'entries';
  /** A full tile or bundle (256 wide), as opposed to a partial one. */
  readonly full: boolean;
  readonly bytes: Uint8Array;
  /** Whether `bytes` are gzip-encoded (an entry bundle for a client that takes gzip). */
  readonly gzipped: boolean;
}

export type LogResourceError = { readonly type: 'not_found' } | BundleRefusal;

export interface LogResourceRequest {
  /** The client takes gzip (Accept-Encoding). */
  readonly gzip: boolean;
  /** The client's address as the per-address bounds count it; asked only when a bundle must be built. */
  readonly client: () => string;
}

/** Hash tiles kept in memory (8 KiB each at most): the top of a tree is asked for by every client. */
const KEPT_TILES = 1024;

export class GetLogResource {
  private readonly tiles: BoundedCache<string, Uint8Array>;

  constructor(
    private readonly log: TransparencyLog,
    private readonly bundles: EntryBundles,
    caches: CacheFactory,
  ) {
    this.tiles = caches.create({ max: KEPT_TILES });
  }

  /** The resource at `path` (relative to the log's prefix: `tile/…`). */
  async execute(path: string, request: LogResourceRequest): Promise<Result<LogResource, LogResourceError>> {
    const resource = parseTilePath(path);
    const size = resource && (await this.coveringSize(resource));
    if (resource === null || size === null) return err({ type: 'not_found' });
    const full = resource.width === FULL_TILE_WIDTH;
    if (resource.kind === 'entries') {
      const { index, width } = resource;
      const covered = size - index * FULL_TILE_WIDTH;
      // Named one by one: spreading objects here cost more than the whole read from memory.
      const read = await this.bundles.read({
        index,
        width,
        covered,
        gzip: request.gzip,
        client: request.client,
      });
      if (!read.ok) return read;
      return ok({ kind: 'entries', full, bytes: read.value, gzipped: request.gzip });
    }
    let bytes = this.tiles.get(path);
    if (!bytes) {
      bytes = await readTile(this.log.reader, resource);
      this.tiles.set(path, bytes);
    }
    return ok({ kind: 'tile', full, bytes, gzipped: false });
  }

  /**
   * The size of the latest checkpoint when it covers the resource, else null: the size seen last answers most
   * requests without a store read.
   */
  private async coveringSize(resource: TileResource): Promise<number | null> {
    const seen = this.log.latestSize();
    if (isWithinTree(resource, seen)) return seen;
    const latest = await this.log.latest();
    return latest !== null && isWithinTree(resource, latest.size) ? latest.size : null;
  }
}
