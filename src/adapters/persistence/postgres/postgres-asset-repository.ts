import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import { tagKey } from '../../../domain/tag-key.js';
import { prefixSuccessor } from '../prefix-successor.js';
import { ASSET_ROWS, type AssetRow } from './codecs/asset-rows.js';
import { qualifiedList } from './postgres-codec.js';
import { FilteredSeeks, seekOrder, type Query } from './postgres-seeks.js';
import type { Queryable } from './postgres-sql.js';

/** An asset's row with its position. */
type PositionedAssetRow = AssetRow & { seq: number };

const COLUMNS = `seq, ${ASSET_ROWS.list}`;
/** The same columns of `assets a`, for the tag seeks that join it to `asset_tags t`. */
const JOINED_COLUMNS = `a.seq, ${qualifiedList(ASSET_ROWS, 'a')}`;

/**
 * The conditions shared by every list and count of live assets (the partial indexes of migration 3), with their
 * parameters numbered from `first`. `columns` prefixes each column (`a.` where `assets` is joined to the tag index).
 * A name prefix is the range [prefix, its successor) of the "C"-collated name: code point order.
 */
function liveAssetsMatching(filter: AssetFilter, first: number, columns = ''): Query {
  const conditions = [`${columns}deleted_at IS NULL`];
  const params: unknown[] = [];
  const next = (value: unknown) => `$${first + params.push(value) - 1}`;
  if (filter.owner !== undefined) conditions.push(`${columns}owner = ${next(filter.owner)}`);
  if (filter.namePrefix !== undefined && filter.namePrefix !== '') {
    conditions.push(`${columns}name >= ${next(filter.namePrefix)}`);
    const successor = prefixSuccessor(filter.namePrefix);
    if (successor !== null) conditions.push(`${columns}name < ${next(successor)}`);
  }
  return { text: conditions.join(' AND '), params };
}

/**
 * Up to `limit` live assets by position: `older` newest first below `position`, `newer` oldest first above it. A
 * tag seeks its range of `asset_tags`' primary key (tag key, then seq) and reads each asset by its position; an
 * owner or a name prefix is checked on each asset of the tag.
 */
export function assetSeekQuery(
  filter: AssetFilter,
  direction: 'older' | 'newer',
  position: number,
  limit: number,
): Query {
  const [comparison, order] = seekOrder(direction);
  if (filter.tag !== undefined) {
    const where = liveAssetsMatching(filter, 3, 'a.');
    const n = 3 + where.params.length;
    return {
      text:
        `SELECT ${JOINED_COLUMNS} FROM asset_tags t JOIN assets a ON a.seq = t.seq ` +
        `WHERE t.tag = $1 AND t.seq ${comparison} $2 AND ${where.text} ORDER BY t.seq ${order} LIMIT $${n}`,
      params: [tagKey(filter.tag), position, ...where.params, limit],
    };
  }
  const where = liveAssetsMatching(filter, 1);
  const n = where.params.length;
  return {
    text: `SELECT ${COLUMNS} FROM assets WHERE ${where.text} AND seq ${comparison} $${n + 1} ORDER BY seq ${order} LIMIT $${n + 2}`,
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
      return { text: 'SELECT live_assets AS n FROM tag_counts WHERE tag = $1', params: [tagKey(filter.tag)] };
    const where = liveAssetsMatching(filter, 2, 'a.');
    return {
      text: `SELECT COUNT(*) AS n FROM asset_tags t JOIN assets a ON a.seq = t.seq WHERE t.tag = $1 AND ${where.text}`,
      params: [tagKey(filter.tag), ...where.params],
    };
  }
  if (!prefixed) {
    return filter.owner === undefined
      ? { text: "SELECT value AS n FROM counters WHERE name = 'live_assets'", params: [] }
      : { text: 'SELECT live_assets AS n FROM user_counts WHERE username = $1', params: [filter.owner] };
  }
  const where = liveAssetsMatching(filter, 1);
  return { text: `SELECT COUNT(*) AS n FROM assets WHERE ${where.text}`, params: where.params };
}

/**
 * Reads of the registry; positions are `seq`, registration order. Assets are written only by the activity log's
 * append, in the transaction of their activity.
 */
export class PostgresAssetRepository
  extends FilteredSeeks<Asset, AssetFilter, PositionedAssetRow>
  implements AssetRepository
{
  constructor(db: Queryable) {
    super(db, {
      seek: assetSeekQuery,
      count: assetCountQuery,
      read: (row) => ({ position: row.seq, value: ASSET_ROWS.fromRow(row) }),
    });
  }

  async findByName(name: AssetName): Promise<Asset | null> {
    const [row] = await this.db.query<AssetRow>(`SELECT ${ASSET_ROWS.list} FROM assets WHERE name = $1`, [
      name,
    ]);
    return row ? ASSET_ROWS.fromRow(row) : null;
  }
}
