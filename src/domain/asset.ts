import { wellFormed, withoutInvisibleFormatting } from './text.js';
import { err, ok, type Result } from './result.js';
import type { Username } from './user.js';
import { canParseUrl } from './url-parse.js';

export type AssetName = string & { readonly __brand: 'AssetName' };

const NAME_MAX = 128;

/**
 * The asset-name rule, once: the request check, the form's attributes and /openapi.json are built from it. The
 * pattern is unanchored, with `-` escaped so that a form's `pattern` attribute (compiled with the v flag) takes it.
 */
export const ASSET_NAME_RULE = {
  maxCharacters: NAME_MAX,
  pattern: `[A-Za-z0-9][A-Za-z0-9._\\-]{0,${NAME_MAX - 1}}`,
  message: `Use 1–${NAME_MAX} characters of A–Z, a–z, 0–9, ., _ and -, starting with a letter or digit.`,
} as const;

export const ASSET_NAME_PATTERN = new RegExp(`^${ASSET_NAME_RULE.pattern}$`);
export const CONTENT_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;
/** type/subtype with RFC 6838 characters, optional parameters not allowed (they belong to no stored asset). */
export const MEDIA_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
export const DESCRIPTION_MAX_CHARACTERS = 5000;
/** Alt text as Mastodon keeps it: at most 1,500 characters. */
export const ALT_TEXT_MAX_CHARACTERS = 1500;
/** The longest asset URL (API.md §3): long enough for any signed CDN URL, short enough for every peer. */
export const URL_MAX_CHARACTERS = 2048;
export const TAGS_MAX = 20;
export const TAG_MAX_CHARACTERS = 50;
/**
 * A tag is one word: no whitespace, no comma (the form separates tags with commas), no leading '#' — and not '.' or
 * '..', which no URL can hold as a path segment (its hashtag page `/tags/..` would be read as `/`).
 */
export const TAG_PATTERN = /^(?!\.\.?$)[^\s,#\p{Cc}][^\s,\p{Cc}]*$/u;

/**
 * Tabs become spaces and other control characters (but line breaks) are dropped: JSON-LD libraries escape them
 * differently in canonical form, so a description holding them would sign in a way some peers cannot verify.
 */
export function normaliseDescription(text: string): string {
  // \p{Cc} is every control character; line feed and carriage return are kept. A lone surrogate becomes U+FFFD,
  // as every store would keep it, so the stored text is the signed one.
  return wellFormed(text.replace(/\t/g, ' ').replace(/(?![\n\r])\p{Cc}/gu, ''));
}

export interface Asset {
  readonly name: AssetName;
  readonly owner: Username;
  readonly contentHash: string;
  readonly mediaType: string;
  readonly url: string | null;
  readonly description: string;
  /** What the picture (or sound, or film) shows, for those who cannot see it; null when not given. */
  readonly altText: string | null;
  /** Peers hide its media behind a warning. */
  readonly sensitive: boolean;
  readonly tags: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Set once the asset is deleted: it then appears in no list, and its name stays taken. */
  readonly deletedAt: Date | null;
}

/**
 * What an update may not change, by its API name, and why. Only a request can name them (an update's fields have
 * no place for them): `fixedFieldsNamed` finds them there.
 */
export const FIXED_ASSET_FIELDS = {
  name: 'The name cannot be changed.',
  content_hash: 'The content hash cannot be changed: register new content as a new asset.',
  owner: 'The owner cannot be changed.',
} as const;

export type FixedAssetField = keyof typeof FIXED_ASSET_FIELDS;

/** The fields an owner may set; `content_hash` is fixed at registration (new content is a new asset). */
export interface AssetFields {
  readonly contentHash: string;
  readonly mediaType: string;
  readonly url: string | null;
  readonly description: string;
  readonly altText: string | null;
  readonly sensitive: boolean;
  readonly tags: readonly string[];
}

export type AssetFieldError = { readonly path: string; readonly message: string };

/**
 * The fixed fields a requested change names, each refused with why (in FIXED_ASSET_FIELDS' order, the first as
 * the error, the rest as `others`), or null when it names none.
 */
export function fixedFieldsNamed(
  requested: object,
): (AssetFieldError & { readonly others: readonly AssetFieldError[] }) | null {
  const [first, ...others] = (Object.keys(FIXED_ASSET_FIELDS) as FixedAssetField[])
    .filter((field) => field in requested)
    .map((path) => ({ path, message: FIXED_ASSET_FIELDS[path] }));
  return first ? { ...first, others } : null;
}

export function parseAssetName(input: string): Result<AssetName, AssetFieldError> {
  return ASSET_NAME_PATTERN.test(input)
    ? ok(input as AssetName)
    : err({ path: 'name', message: ASSET_NAME_RULE.message });
}

/** Trims tags, drops invisible formatting and a leading '#', removes duplicates (keeping the first), checks each. */
export function normaliseTags(tags: readonly string[]): Result<string[], AssetFieldError> {
  const cleaned = [
    ...new Set(
      tags
        .map((t) => wellFormed(withoutInvisibleFormatting(t).trim().replace(/^#/, '')))
        .filter((t) => t !== ''),
    ),
  ];
  if (cleaned.length > TAGS_MAX) return err({ path: 'tags', message: `At most ${TAGS_MAX} tags.` });
  for (const tag of cleaned) {
    if ([...tag].length > TAG_MAX_CHARACTERS || !TAG_PATTERN.test(tag)) {
      return err({
        path: 'tags',
        message: `Each tag is one word of at most ${TAG_MAX_CHARACTERS} characters, without spaces or commas (and not . or ..).`,
      });
    }
  }
  return ok(cleaned);
}

/**
 * The URL in its WHATWG serialisation (spaces and brackets escaped), or null if it is no absolute http(s) URL or
 * is longer than URL_MAX_CHARACTERS once serialised.
 */
export function normaliseAssetUrl(value: string): string | null {
  if (!canParseUrl(value)) return null;
  const url = new URL(value);
  const http = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  return http && url.href.length <= URL_MAX_CHARACTERS ? url.href : null;
}

/**
 * The field rules an owner's values must keep, whatever an edge already checked: each value normalised (content
 * hash and media type lower-cased, the URL in its WHATWG form, the description cleaned, the tags trimmed and
 * deduplicated), or the first field that breaks its rule.
 */
export function checkAssetFields(fields: AssetFields): Result<AssetFields, AssetFieldError> {
  const invalid = (path: string, message: string) => err({ path, message });
  const contentHash = fields.contentHash.toLowerCase();
  if (!CONTENT_HASH_PATTERN.test(contentHash))
    return invalid('content_hash', 'Use sha256: followed by 64 hex digits.');
  const mediaType = fields.mediaType.toLowerCase();
  if (!MEDIA_TYPE_PATTERN.test(mediaType))
    return invalid('media_type', 'Use a media type such as image/png.');
  const url = fields.url === null ? null : normaliseAssetUrl(fields.url);
  if (fields.url !== null && url === null)
    return invalid('url', `Use an absolute http(s) URL of at most ${URL_MAX_CHARACTERS} characters.`);
  const description = normaliseDescription(fields.description);
  if ([...description].length > DESCRIPTION_MAX_CHARACTERS) {
    return invalid('description', `At most ${DESCRIPTION_MAX_CHARACTERS} characters.`);
  }
  // Alt text is cleaned as a description is (it is signed in the same way), and loses invisible formatting as a
  // name does (it is read out as one); blank is none.
  const alt =
    fields.altText === null ? '' : withoutInvisibleFormatting(normaliseDescription(fields.altText)).trim();
  if ([...alt].length > ALT_TEXT_MAX_CHARACTERS)
    return invalid('alt_text', `At most ${ALT_TEXT_MAX_CHARACTERS} characters.`);
  const tags = normaliseTags(fields.tags);
  if (!tags.ok) return tags;
  return ok({
    contentHash,
    mediaType,
    url,
    description,
    altText: alt === '' ? null : alt,
    sensitive: fields.sensitive,
    tags: tags.value,
  });
}

/** Whether a URL is an https: one (the only files peers show, and the only pictures a page shows). */
export const isHttps = (url: string | null): url is string => url !== null && url.startsWith('https:');

/**
 * Whether a fediverse post of the asset carries its file as an attachment (API.md §4.1): an https file of a media
 * type every peer shows — a picture, a film or a sound.
 */
export function hasMediaAttachment(asset: Pick<Asset, 'url' | 'mediaType'>): boolean {
  return isHttps(asset.url) && /^(image|video|audio)\//.test(asset.mediaType);
}

/** Whether the asset can stand for its owner's face or banner: a live https picture (API.md §4.2). */
export function isProfilePicture(asset: Asset, owner: Username): boolean {
  return (
    asset.owner === owner &&
    asset.deletedAt === null &&
    isHttps(asset.url) &&
    asset.mediaType.startsWith('image/')
  );
}

/** A change an owner makes to the registry; the moment it is published decides its times. */
export type AssetEdit =
  | {
      readonly kind: 'create';
      readonly name: AssetName;
      readonly owner: Username;
      readonly fields: AssetFields;
    }
  /** `fields` replace the mutable fields of `current` (the content hash stays). */
  | { readonly kind: 'update'; readonly current: Asset; readonly fields: AssetFields }
  | { readonly kind: 'delete'; readonly current: Asset };

/** The asset as the edit leaves it when published at `at`. */
export function editedAsset(edit: AssetEdit, at: Date): Asset {
  switch (edit.kind) {
    case 'create':
      return {
        name: edit.name,
        owner: edit.owner,
        ...edit.fields,
        createdAt: at,
        updatedAt: at,
        deletedAt: null,
      };
    case 'update':
      return { ...edit.current, ...edit.fields, contentHash: edit.current.contentHash, updatedAt: at };
    case 'delete':
      return { ...edit.current, deletedAt: at };
  }
}
