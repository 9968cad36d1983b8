import type { Asset, AssetName } from '../../../../domain/asset.js';
import { tagKeysOf } from '../../../../domain/tag-key.js';
import type { Username } from '../../../../domain/user.js';
import type { MongoCodec, OlderDocument } from '../mongo-codec.js';

/** An asset, keyed by its case-sensitive name; `seq` is its registration position from the `asset_seq` counter. */
export interface AssetDocument {
  _id: string;
  seq: number;
  owner: string;
  contentHash: string;
  mediaType: string;
  url: string | null;
  description: string;
  altText: string | null;
  sensitive: boolean;
  tags: string[];
  /**
   * The distinct keys of `tags` (tagKey: lower-cased in JavaScript), what a tag's page finds an asset by through
   * `assets_live_by_tag`. Documents written before it existed get it at the first start of this version
   * (ensureTagIndex).
   */
  tagKeys: string[];
  createdAt: Date;
  updatedAt: Date;
  /** Null while live; a deleted asset keeps its document, so that its name stays taken. */
  deletedAt: Date | null;
}

/** As stored: documents written before alt text, sensitive assets and the tag index lack those fields. */
export type StoredAssetDocument = OlderDocument<AssetDocument, 'altText' | 'sensitive' | 'tagKeys'>;

export const ASSET_DOCUMENTS: MongoCodec<Asset, Omit<AssetDocument, 'seq'>, StoredAssetDocument> = {
  toDocument: (asset) => ({
    _id: asset.name,
    owner: asset.owner,
    contentHash: asset.contentHash,
    mediaType: asset.mediaType,
    url: asset.url,
    description: asset.description,
    altText: asset.altText,
    sensitive: asset.sensitive,
    tags: [...asset.tags],
    tagKeys: tagKeysOf(asset.tags),
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
    deletedAt: asset.deletedAt,
  }),
  fromDocument: (doc) => ({
    name: doc._id as AssetName,
    owner: doc.owner as Username,
    contentHash: doc.contentHash,
    mediaType: doc.mediaType,
    url: doc.url,
    description: doc.description,
    // Written before alt text and sensitive assets existed: none, and not sensitive.
    altText: doc.altText ?? null,
    sensitive: doc.sensitive ?? false,
    tags: doc.tags,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    deletedAt: doc.deletedAt,
  }),
};

/** What registration fixes: an update replaces every other field but `deletedAt` (a delete's). */
export const FIXED_ASSET_FIELDS = ['_id', 'owner', 'contentHash', 'createdAt', 'deletedAt'] as const;
