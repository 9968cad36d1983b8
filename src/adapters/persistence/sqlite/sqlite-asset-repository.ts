import type { Database, Statement } from 'better-sqlite3';
import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import type { Username } from '../../../domain/user.js';
import { tagKey } from '../../../domain/tag-key.js';
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
  alt_text: string | null;
  /** 0 or 1. */
  sensitive: number;
  /** A JSON array of strings. */
  tags: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

const COLUMN_NAMES = [
  'seq',
  'name',
  'owner',
  'content_hash',
  'media_type',
  'url',
  'description',
  'alt_text',
  'sensitive',
  'tags',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof AssetRow)[];

const COLUMNS = COLUMN_NAMES.join(', ');
/** The same columns of `assets a`, for the tag seeks that join it to `asset_tags t`. */
const JOINED_COLUMNS = COLUMN_NAMES.map((c) => `a.${c}`).join(', ');

const fromRow = (row: AssetRow): Asset => ({
  name: row.name as AssetName,
  owner: row.owner as Username,
  contentHash: row.content_hash,
  mediaType: row.media_type,
  url: row.url,
  description: row.description,
  altText: row.alt_text,
  sensitive: row.sensitive === 1,
  tags: JSON.parse(row.tags) as string[],
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
  deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
});

/**
 * The conditions shared by every list and count of live assets; they match the partial indexes of migration 2.
 * `columns` prefixes each column (`a.` where `assets` is joined to the tag index).
 */
function liveAssetsMatching(filter: AssetFilter, columns = ''): Query {
  const conditions = [`${columns}deleted_at IS NULL`];
  const params: (string | number)[] = [];
  if (filter.owner !== undefined) {
    conditions.push(`${columns}owner = ?`);
    params.push(filter.owner);
  }
  if (filter.namePrefix !== undefined && filter.namePrefix !== '') {
    conditions.push(`${columns}name >= ?`);
    params.push(filter.namePrefix);
    const successor = prefixSuccessor(filter.namePrefix);
    if (successor !== null) {
      conditions.push(`${columns}name < ?`);
      params.push(successor);
    }
  }
  return { sql: conditions.join(' AND '), params };
}

/**
 * Up to `limit` live assets by position: `older` newest first below `position`, `newer` oldest first above it. A
 * tag seeks its range of `asset_tags`' primary key (tag key, then seq) and reads each asset by its rowid; CROSS JOIN
 * keeps that order of the loops whatever else the filter holds (an owner, a name prefix: checked on each asset of the
 * tag, so such a page costs what it skips of the tag's assets).
 */
export function assetSeekQuery(
  filter: AssetFilter,
  direction: 'older' | 'newer',
  position: number,
  limit: number,
): Query {
  const [comparison, order] = direction === 'older' ? ['<', 'DESC'] : ['>', 'ASC'];
  if (filter.tag !== undefined) {
    const where = liveAssetsMatching(filter, 'a.');
    return {
      sql:
        `SELECT ${JOINED_COLUMNS} FROM asset_tags t CROSS JOIN assets a ON a.seq = t.seq ` +
        `WHERE t.tag = ? AND t.seq ${comparison} ? AND ${where.sql} ORDER BY t.seq ${order} LIMIT ?`,
      params: [tagKey(filter.tag), position, ...where.params, limit],
    };
  }
  const where = liveAssetsMatching(filter);
  return {
    sql: `SELECT ${COLUMNS} FROM assets WHERE ${where.sql} AND seq ${comparison} ? ORDER BY seq ${order} LIMIT ?`,
    params: [...where.params, position, limit],
  };
}

/**
 * How many live assets match: a counter kept by every write for all assets, one owner's and one tag's; an index
 * count for a name prefix, and for a tag with an owner or a prefix.
 */
export function assetCountQuery(filter: AssetFilter): Query {
  const prefixed = filter.namePrefix !== undefined && filter.namePrefix !== '';
  if (filter.tag !== undefined) {
    if (filter.owner === undefined && !prefixed)
      return { sql: 'SELECT live_assets AS n FROM tag_counts WHERE tag = ?', params: [tagKey(filter.tag)] };
    const where = liveAssetsMatching(filter, 'a.');
    return {
      sql: `SELECT COUNT(*) AS n FROM asset_tags t CROSS JOIN assets a ON a.seq = t.seq WHERE t.tag = ? AND ${where.sql}`,
      params: [tagKey(filter.tag), ...where.params],
    };
  }
  // All assets and one owner's read a counter; a name prefix counts its matches in the index.
  if (!prefixed) {
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
