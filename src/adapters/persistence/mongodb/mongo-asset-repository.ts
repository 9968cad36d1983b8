import type { Filter } from 'mongodb';
import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import type { AssetDocument, MongoCollections } from './mongo-schema.js';
import { prefixRange, seek, type Seek } from './mongo-seeks.js';
import { readCounter } from './mongo-transactions.js';
import { readUserCount } from './mongo-user-counts.js';

export const assetFromDocument = (doc: AssetDocument): Asset => ({
  name: doc._id as AssetName,
  owner: doc.owner as Username,
  contentHash: doc.contentHash,
  mediaType: doc.mediaType,
  url: doc.url,
  description: doc.description,
  tags: doc.tags,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
  deletedAt: doc.deletedAt,
});

/**
 * The live assets matching `filter`: `deletedAt` of type null and equality on `owner`, so a seek is one interval of
 * `assets_live_by_seq` or `assets_live_by_owner`, already in seq order; a name prefix is a range of `_id`.
 * (`{$type: 'null'}` rather than `null`: before MongoDB 8.0 an equality with null also matched the BSON type
 * undefined, which made two index intervals and could cost a sort. Every asset has `deletedAt`.)
 */
export function liveAssetsMatching(filter: AssetFilter): Filter<AssetDocument> {
  const query: Filter<AssetDocument> = { deletedAt: { $type: 'null' } };
  if (filter.owner !== undefined) query.owner = filter.owner;
  if (filter.namePrefix !== undefined && filter.namePrefix !== '') query._id = prefixRange(filter.namePrefix);
  return query;
}

/**
 * Reads of the registry; positions are `seq`, registration order. Assets are written only by
 * `MongoActivityLog.append`, in the transaction of their activity.
 */
export class MongoAssetRepository implements AssetRepository {
  constructor(private readonly collections: MongoCollections) {}

  async findByName(name: AssetName): Promise<Asset | null> {
    const doc = await storeCall(() => this.collections.assets.findOne({ _id: name }));
    return doc ? assetFromDocument(doc) : null;
  }

  async listOlder(filter: AssetFilter, before: number | null, limit: number): Promise<Positioned<Asset>[]> {
    return this.seek(filter, { direction: 'older', position: before, limit });
  }

  async listNewer(filter: AssetFilter, after: number, limit: number): Promise<Positioned<Asset>[]> {
    return this.seek(filter, { direction: 'newer', position: after, limit });
  }

  /**
   * All live assets and one owner's are totals kept by every create and delete (one document read each); a name
   * prefix — a search someone types, not a page every visitor loads — is counted in its `_id` range, as SQLite
   * counts it in its index.
   */
  async count(filter: AssetFilter): Promise<number> {
    const { assets, counters, userCounts } = this.collections;
    return storeCall(() => {
      if (filter.namePrefix !== undefined && filter.namePrefix !== '') {
        return assets.countDocuments(liveAssetsMatching(filter));
      }
      return filter.owner === undefined
        ? readCounter(counters, 'live_assets')
        : readUserCount(userCounts, filter.owner, 'liveAssets');
    });
  }

  private async seek(filter: AssetFilter, how: Seek): Promise<Positioned<Asset>[]> {
    const docs = await storeCall(() => seek(this.collections.assets, liveAssetsMatching(filter), 'seq', how));
    return docs.map((doc) => ({ position: doc.seq, value: assetFromDocument(doc) }));
  }
}
