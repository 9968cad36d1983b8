// The registry's requests and answers (API.md §3): they validate bodies and generate /openapi.json.
import { z } from 'zod';
import {
  ALT_TEXT_MAX_CHARACTERS,
  ASSET_NAME_PATTERN,
  DESCRIPTION_MAX_CHARACTERS,
  TAG_MAX_CHARACTERS,
  TAGS_MAX,
  URL_MAX_CHARACTERS,
} from '../../../domain/asset.js';
import { formBoolean, isoTime, listOf } from './schemas.js';

// The domain's rules (asset.ts) judge every field and word its message; the bounds written here only cap what is
// parsed before them, above anything the rules let through.

const tagsField = z
  .union([
    z.array(z.string().max(200)).max(100),
    z
      .string()
      .max(5000)
      .transform((s) => s.split(',')),
  ])
  .openapi({
    type: 'array',
    items: { type: 'string' },
    description: `At most ${TAGS_MAX} tags of at most ${TAG_MAX_CHARACTERS} characters; a form sends one comma-separated field.`,
  });
const nullableUrl = z
  .union([z.string().max(URL_MAX_CHARACTERS * 4), z.null()])
  .transform((v) => (v === '' ? null : v))
  .openapi({
    type: ['string', 'null'],
    format: 'uri',
    description: `Absolute http(s) URL of at most ${URL_MAX_CHARACTERS} characters, or null.`,
  });
const altText = z
  .union([z.string().max(ALT_TEXT_MAX_CHARACTERS * 4), z.null()])
  .transform((v) => (v === '' ? null : v))
  .openapi({
    type: ['string', 'null'],
    description: `What the picture shows, for those who cannot see it: at most ${ALT_TEXT_MAX_CHARACTERS} characters, or null (peers then read the description).`,
  });
const sensitive = formBoolean.openapi({
  type: 'boolean',
  description: 'Peers hide the media behind a warning. A form sends a checkbox.',
});

export const RegisterAssetRequest = z
  .object({
    name: z
      .string()
      .max(200)
      .openapi({
        example: 'sunset',
        description: `${ASSET_NAME_PATTERN.source}, unique, case-sensitive`,
      }),
    content_hash: z
      .string()
      .max(200)
      .openapi({ example: `sha256:${'0'.repeat(64)}` }),
    media_type: z.string().max(255).openapi({ example: 'image/png' }),
    url: nullableUrl.optional(),
    description: z
      .string()
      .max(20000)
      .optional()
      .openapi({ description: `At most ${DESCRIPTION_MAX_CHARACTERS} characters.` }),
    alt_text: altText.optional(),
    sensitive: sensitive.optional(),
    tags: tagsField.optional(),
  })
  .openapi('RegisterAssetRequest');

/**
 * What a PATCH may change. The fixed fields (FIXED_ASSET_FIELDS) are refused before this schema is applied, since
 * it would drop them silently.
 */
export const UpdateAssetRequest = z
  .object({
    description: z.string().max(20000).optional(),
    tags: tagsField.optional(),
    url: nullableUrl.optional(),
    media_type: z.string().max(255).optional(),
    alt_text: altText.optional(),
    sensitive: sensitive.optional(),
  })
  .openapi('UpdateAssetRequest');

export const Asset = z
  .object({
    name: z.string(),
    owner: z.string(),
    content_hash: z.string(),
    media_type: z.string(),
    url: z.string().nullable(),
    description: z.string(),
    alt_text: z.string().nullable(),
    sensitive: z.boolean(),
    tags: z.array(z.string()),
    created_at: isoTime,
    updated_at: isoTime,
    id: z.string().url(),
  })
  .openapi('Asset');

export const Activity = z
  .object({
    idx: z.number().int(),
    type: z.enum(['Create', 'Update', 'Delete']),
    actor: z.string(),
    object: z.string(),
    published: isoTime,
    id: z.string().url(),
  })
  .openapi('Activity');

export const AssetList = listOf(Asset, 'AssetList');
export const ActivityList = listOf(Activity, 'ActivityList');
export const AssetWithActivity = Asset.extend({
  activity: z.object({ idx: z.number().int(), id: z.string().url() }),
}).openapi('AssetWithActivity');
export const DeletedAsset = z.object({ activity: Activity }).openapi('DeletedAsset');
