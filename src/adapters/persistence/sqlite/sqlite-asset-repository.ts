import type { Database, Statement } from 'better-sqlite3';
import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './sqlite-errors.js';
import { FilteredSeeks, prefixSuccessor, type Query } from './sqlite-seeks.js';

/** An asset as stored: one row of `assets`. */
export interface AssetRow {
  seq: number;
  name: string;
  owner: string;
  content_hash: string;
  media_type: string;
  url: string | null;
  description: string;
  /** A JSON array of strings. */
  tags: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

const COLUMNS =
  'seq, name, owner, content_hash, media_type, url, description, tags, created_at, updated_at, deleted_at';

const fromRow = (row: AssetRow): Asset => ({
  name: row.name as AssetName,
  owner: row.owner as Username,
  contentHash: row.content_hash,
  mediaType: row.media_type,
  url: row.url,
  description: row.description,
  tags: JSON.parse(row.tags) as string[],
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
  deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
});

/** The conditions shared by every list and count of live assets; they match the partial indexes of migration 2. */
function liveAssetsMatching(filter: AssetFilter): Query {
  const conditions = ['deleted_at IS NULL'];
  const params: (string | number)[] = [];
  if (filter.owner !== undefined) {
    conditions.push('owner = ?');
    params.push(filter.owner);
  }
  if (filter.namePrefix !== undefined && filter.namePrefix !== '') {
    conditions.push('name >= ?');
    params.push(filter.namePrefix);
    const successor = prefixSuccessor(filter.namePrefix);
    if (successor !== null) {
      conditions.push('name < ?');
      params.push(successor);
    }
  }
  return { sql: conditions.join(' AND '), params };
}

/** Up to `limit` live assets by position: `older` newest first below `position`, `newer` oldest first above it. */
export function assetSeekQuery(
  filter: AssetFilter,
  direction: 'older' | 'newer',
  position: number,
  limit: number,
): Query {
  const where = liveAssetsMatching(filter);
  const [comparison, order] = direction === 'older' ? ['<', 'DESC'] : ['>', 'ASC'];
  return {
    sql: `SELECT ${COLUMNS} FROM assets WHERE ${where.sql} AND seq ${comparison} ? ORDER BY seq ${order} LIMIT ?`,
    params: [...where.params, position, limit],
  };
}

/** How many live assets match: the counter kept by every create and delete when unfiltered, else an index count. */
export function assetCountQuery(filter: AssetFilter): Query {
  // All assets and one owner's read a counter; a name prefix counts its matches in the index.
  if (filter.namePrefix === undefined) {
    return filter.owner === undefined
      ? { sql: "SELECT value AS n FROM counters WHERE name = 'live_assets'", params: [] }
      : { sql: 'SELECT live_assets AS n FROM user_counts WHERE username = ?', params: [filter.owner] };
  }
  const where = liveAssetsMatching(filter);
  return { sql: `SELECT COUNT(*) AS n FROM assets WHERE ${where.sql}`, params: where.params };
}

/**
 * Reads of the registry; positions are `seq`, registration order. Assets are written only by
 * `SqliteActivityLog.append`, in the transaction of their activity.
 */
export class SqliteAssetRepository
  extends FilteredSeeks<Asset, AssetFilter, AssetRow>
  implements AssetRepository
{
  private readonly selectByName: Statement<[string], AssetRow>;

  constructor(db: Database) {
    super(db, {
      seek: assetSeekQuery,
      count: assetCountQuery,
      read: (row) => ({ position: row.seq, value: fromRow(row) }),
    });
    this.selectByName = db.prepare(`SELECT ${COLUMNS} FROM assets WHERE name = ?`);
  }

  async findByName(name: AssetName): Promise<Asset | null> {
    const row = storeCall(() => this.selectByName.get(name));
    return row ? fromRow(row) : null;
  }
}
