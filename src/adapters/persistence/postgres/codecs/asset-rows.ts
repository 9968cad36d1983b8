import type { Asset, AssetName } from '../../../../domain/asset.js';
import type { Username } from '../../../../domain/user.js';
import { postgresTable, type RowOf } from '../postgres-codec.js';

/** An asset as one row of `assets`; `seq`, its registration position, is the store's (an identity column). */
export const ASSET_ROWS = postgresTable(
  'assets',
  {
    name: 'text',
    owner: 'text',
    content_hash: 'text',
    media_type: 'text',
    url: 'text?',
    description: 'text',
    alt_text: 'text?',
    sensitive: 'boolean',
    /** A JSON array of strings. */
    tags: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    deleted_at: 'timestamptz?',
  },
  ['seq'],
).codec<Asset>({
  toRow: (asset) => ({
    name: asset.name,
    owner: asset.owner,
    content_hash: asset.contentHash,
    media_type: asset.mediaType,
    url: asset.url,
    description: asset.description,
    alt_text: asset.altText,
    sensitive: asset.sensitive,
    tags: JSON.stringify(asset.tags),
    created_at: asset.createdAt,
    updated_at: asset.updatedAt,
    deleted_at: asset.deletedAt,
  }),
  fromRow: (row) => ({
    name: row.name as AssetName,
    owner: row.owner as Username,
    contentHash: row.content_hash,
    mediaType: row.media_type,
    url: row.url,
    description: row.description,
    altText: row.alt_text,
    sensitive: row.sensitive,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  }),
});

/** What registration fixes: an update replaces every other column but `deleted_at` (a delete's). */
export const FIXED_ASSET_COLUMNS = ['name', 'owner', 'content_hash', 'created_at', 'deleted_at'] as const;

export type AssetRow = RowOf<typeof ASSET_ROWS.columns>;
