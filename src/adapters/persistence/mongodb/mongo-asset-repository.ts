import type { Filter } from 'mongodb';
import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import { tagKey } from '../../../domain/tag-key.js';
import { storeCall } from './mongo-errors.js';
import { ASSET_DOCUMENTS, type StoredAssetDocument } from './codecs/asset-documents.js';
import { ASSETS_LIVE_BY_TAG, type MongoCollections } from './mongo-schema.js';
import { prefixRange, seek, type Seek } from './mongo-seeks.js';
import { readTagCount } from './mongo-tag-index.js';
import { readCounter } from './mongo-transactions.js';
import { readUserCount } from './mongo-user-counts.js';

/**
 * The live assets matching `filter`: `deletedAt` of type null and equality on `owner`, so a seek is one interval of
 * `assets_live_by_seq` or `assets_live_by_owner`, already in seq order; a name prefix is a range of `_id`; a tag is
 * one key of `tagKeys` (`assets_live_by_tag`). (`{$type: 'null'}` rather than `null`: before MongoDB 8.0 an equality
 * with null also matched the BSON type undefined, which made two index intervals and could cost a sort. Every asset
 * has `deletedAt`.)
 */
export function liveAssetsMatching(filter: AssetFilter): Filter<StoredAssetDocument> {
  const query: Filter<StoredAssetDocument> = { deletedAt: { $type: 'null' } };
  if (filter.tag !== undefined) query.tagKeys = tagKey(filter.tag);
  if (filter.owner !== undefined) query.owner = filter.owner;
  if (filter.namePrefix !== undefined && filter.namePrefix !== '') query._id = prefixRange(filter.namePrefix);
  return query;
}

/**
 * The index a seek of `filter` names: a tag's, whatever else the filter holds (its range is the tag's assets, each
 * checked for the rest), so a page of a tag never depends on the planner's trial of the others.
 */
export const seekHint = (filter: AssetFilter): string | undefined =>
  filter.tag === undefined ? undefined : ASSETS_LIVE_BY_TAG;

/**
 * Reads of the registry; positions are `seq`, registration order. Assets are written only by
 * `MongoActivityLog.append`, in the transaction of their activity.
 */
export class MongoAssetRepository implements AssetRepository {
  constructor(private readonly collections: MongoCollections) {}

  async findByName(name: AssetName): Promise<Asset | null> {
    const doc = await storeCall(() => this.collections.assets.findOne({ _id: name }));
    return doc ? ASSET_DOCUMENTS.fromDocument(doc) : null;
  }

  async listOlder(filter: AssetFilter, before: number | null, limit: number): Promise<Positioned<Asset>[]> {
    return this.seek(filter, { direction: 'older', position: before, limit });
  }

  async listNewer(filter: AssetFilter, after: number, limit: number): Promise<Positioned<Asset>[]> {
    return this.seek(filter, { direction: 'newer', position: after, limit });
  }

  /**
   * All live assets, one owner's and one tag's are totals kept by every write (one document read each); a name
   * prefix — a search someone types, not a page every visitor loads — is counted in its `_id` range, as SQLite
   * counts it in its index, and a tag with an owner or a prefix in the tag's index.
   */
  async count(filter: AssetFilter): Promise<number> {
    const { assets, counters, userCounts, tagCounts } = this.collections;
    const prefixed = filter.namePrefix !== undefined && filter.namePrefix !== '';
    return storeCall(() => {
      if (filter.tag !== undefined) {
        // One tag's total is kept by every write; with an owner or a prefix, its assets are counted in its index.
        if (filter.owner === undefined && !prefixed) return readTagCount(tagCounts, tagKey(filter.tag));
        return assets.countDocuments(liveAssetsMatching(filter), { hint: ASSETS_LIVE_BY_TAG });
      }
      if (prefixed) return assets.countDocuments(liveAssetsMatching(filter));
      return filter.owner === undefined
        ? readCounter(counters, 'live_assets')
        : readUserCount(userCounts, filter.owner, 'liveAssets');
    });
  }

  private async seek(filter: AssetFilter, how: Seek): Promise<Positioned<Asset>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.assets, liveAssetsMatching(filter), 'seq', how, seekHint(filter)),
    );
    return docs.map((doc) => ({ position: doc.seq, value: ASSET_DOCUMENTS.fromDocument(doc) }));
  }
}
