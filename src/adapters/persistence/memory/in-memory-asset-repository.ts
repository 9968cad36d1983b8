import type { AssetFilter, AssetRepository } from '../../../application/ports/asset-repository.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { Asset, AssetName } from '../../../domain/asset.js';
import { tagKey } from '../../../domain/tag-key.js';
import { MemoryDatabase, type StoredAsset } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

/**
 * The memory store's one mapping of an asset: the copy it keeps and hands out, sharing nothing mutable with `asset`,
 * with exactly the fields the other stores keep (a field left out does not compile).
 */
export const copyOfAsset = (asset: Asset): Asset => ({
  name: asset.name,
  owner: asset.owner,
  contentHash: asset.contentHash,
  mediaType: asset.mediaType,
  url: asset.url,
  description: asset.description,
  altText: asset.altText,
  sensitive: asset.sensitive,
  tags: [...asset.tags],
  createdAt: new Date(asset.createdAt),
  updatedAt: new Date(asset.updatedAt),
  deletedAt: asset.deletedAt === null ? null : new Date(asset.deletedAt),
});

const assetOf = (stored: StoredAsset): Asset => copyOfAsset(stored.asset);

/**
 * Live assets matching the filter; the name prefix is compared case-sensitively, character for character, a tag by
 * its key (case-insensitively).
 */
const liveMatching = (filter: AssetFilter) => {
  const key = filter.tag === undefined ? undefined : tagKey(filter.tag);
  return ({ asset }: StoredAsset): boolean =>
    asset.deletedAt === null &&
    (filter.owner === undefined || asset.owner === filter.owner) &&
    (filter.namePrefix === undefined || asset.name.startsWith(filter.namePrefix)) &&
    (key === undefined || asset.tags.some((t) => tagKey(t) === key));
};

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
    return seekOlder(this.candidates(filter), before, limit, liveMatching(filter), assetOf);
  }

  async listNewer(filter: AssetFilter, after: number, limit: number): Promise<Positioned<Asset>[]> {
    this.db.assertOpen();
    return seekNewer(this.candidates(filter), after, limit, liveMatching(filter), assetOf);
  }

  async count(filter: AssetFilter): Promise<number> {
    this.db.assertOpen();
    const onlyTag = filter.owner === undefined && !filter.namePrefix;
    if (filter.tag !== undefined && onlyTag) return this.candidates(filter).length;
    if (onlyTag) return this.db.liveAssetCount;
    return this.candidates(filter).filter(liveMatching(filter)).length;
  }

  /** The assets a filtered list walks: a tag's own (its index entry), or the whole registry. */
  private candidates(filter: AssetFilter): readonly StoredAsset[] {
    if (filter.tag === undefined) return this.db.assetsInOrder;
    return this.db.tags.assetsOf(tagKey(filter.tag));
  }
}
