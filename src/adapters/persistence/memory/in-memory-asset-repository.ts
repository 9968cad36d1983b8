import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import { MemoryDatabase, type StoredAsset } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

/** A copy sharing nothing mutable with `asset`, with exactly the fields SQLite stores. */
export const copyOfAsset = (asset: Asset): Asset => ({
  name: asset.name,
  owner: asset.owner,
  contentHash: asset.contentHash,
  mediaType: asset.mediaType,
  url: asset.url,
  description: asset.description,
  tags: [...asset.tags],
  createdAt: new Date(asset.createdAt),
  updatedAt: new Date(asset.updatedAt),
  deletedAt: asset.deletedAt === null ? null : new Date(asset.deletedAt),
});

const assetOf = (stored: StoredAsset): Asset => copyOfAsset(stored.asset);

/** Live assets matching the filter; the name prefix is compared case-sensitively, character for character. */
const liveMatching =
  (filter: AssetFilter) =>
  ({ asset }: StoredAsset): boolean =>
    asset.deletedAt === null &&
    (filter.owner === undefined || asset.owner === filter.owner) &&
    (filter.namePrefix === undefined || asset.name.startsWith(filter.namePrefix));

/** Reads of the registry; positions are registration order. Assets are written by `InMemoryActivityLog.append`. */
export class InMemoryAssetRepository implements AssetRepository {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async findByName(name: AssetName): Promise<Asset | null> {
    this.db.assertOpen();
    const stored = this.db.assets.get(name);
    return stored ? assetOf(stored) : null;
  }

  async listOlder(filter: AssetFilter, before: number | null, limit: number): Promise<Positioned<Asset>[]> {
    this.db.assertOpen();
    return seekOlder(this.db.assetsInOrder, before, limit, liveMatching(filter), assetOf);
  }

  async listNewer(filter: AssetFilter, after: number, limit: number): Promise<Positioned<Asset>[]> {
    this.db.assertOpen();
    return seekNewer(this.db.assetsInOrder, after, limit, liveMatching(filter), assetOf);
  }

  async count(filter: AssetFilter): Promise<number> {
    this.db.assertOpen();
    if (filter.owner === undefined && !filter.namePrefix) return this.db.liveAssetCount;
    return this.db.assetsInOrder.filter(liveMatching(filter)).length;
  }
}
