import type { Database, Statement } from 'better-sqlite3';
import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import { tagKey } from '../../../domain/tag-key.js';
import { ASSET_ROWS, type AssetRow } from './codecs/asset-rows.js';
import { qualifiedList } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { FilteredSeeks, prefixSuccessor, type Query } from './sqlite-seeks.js';

/** An asset's row with its position. */
type PositionedAssetRow = AssetRow & { seq: number };

const COLUMNS = `seq, ${ASSET_ROWS.list}`;
/** The same columns of `assets a`, for the tag seeks that join it to `asset_tags t`. */
const JOINED_COLUMNS = `a.seq, ${qualifiedList(ASSET_ROWS, 'a')}`;

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
  extends FilteredSeeks<Asset, AssetFilter, PositionedAssetRow>
  implements AssetRepository
{
  private readonly selectByName: Statement<[string], AssetRow>;

  constructor(db: Database) {
    super(db, {
      seek: assetSeekQuery,
      count: assetCountQuery,
      read: (row) => ({ position: row.seq, value: ASSET_ROWS.fromRow(row) }),
    });
    this.selectByName = db.prepare(`SELECT ${ASSET_ROWS.list} FROM assets WHERE name = ?`);
  }

  async findByName(name: AssetName): Promise<Asset | null> {
    const row = storeCall(() => this.selectByName.get(name));
    return row ? ASSET_ROWS.fromRow(row) : null;
  }
}
