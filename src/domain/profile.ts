// A user's public profile (API.md §4.2): what people see of them here and on every fediverse server.
import { isProfilePicture, parseAssetName, type Asset, type AssetName } from './asset.js';
import { err, ok, type Result } from './result.js';
import { wellFormed, withoutInvisibleFormatting } from './text.js';
import type { Username } from './user.js';

export interface ProfileField {
  readonly name: string;
  readonly value: string;
}

export interface Profile {
  /** Shown instead of the username; null shows the username. */
  readonly displayName: string | null;
  /** Plain text; peers get it as escaped HTML with paragraphs and links. */
  readonly bio: string | null;
  /** The name of one of the user's own live https pictures, or null. */
  readonly avatar: AssetName | null;
  readonly header: AssetName | null;
  readonly fields: readonly ProfileField[];
  /** Names of the user's own live assets, shown first, in order (the actor's `featured`). */
  readonly pinned: readonly AssetName[];
  /** Opt-in to full-text search on other servers (Mastodon's `indexable`). */
  readonly indexable: boolean;
  /** A Follow becomes a request the person accepts or rejects (Mastodon's "locked" account, API.md §4.3). */
  readonly manuallyApprovesFollowers: boolean;
}

export const EMPTY_PROFILE: Profile = {
  displayName: null,
  bio: null,
  avatar: null,
  header: null,
  fields: [],
  pinned: [],
  indexable: false,
  manuallyApprovesFollowers: false,
};

/** The limits of every profile field, once: the checks, the form and /openapi.json are built from them. */
export const PROFILE_RULES = {
  displayNameMaxCharacters: 100,
  bioMaxCharacters: 2000,
  fieldsMax: 4,
  fieldNameMaxCharacters: 100,
  fieldValueMaxCharacters: 500,
  pinnedMax: 5,
} as const;

/** A change to a profile: the fields given are set (null clears one), the others stay. */
export type ProfileChanges = {
  readonly [K in keyof Profile]?: K extends 'avatar' | 'header'
    ? string | null
    : K extends 'pinned'
      ? readonly string[]
      : Profile[K];
};

export type ProfileFieldError = { readonly path: string; readonly message: string };

const length = (text: string) => [...text].length;
/**
 * Control characters are dropped (canonical JSON-LD escapes them differently between libraries), as in descriptions;
 * single-line texts lose invisible formatting too (withoutInvisibleFormatting).
 * A kept line break is one `\n`: a browser sends a textarea's as CRLF, and counts each as one character.
 */
const cleaned = (text: string, keepLineBreaks: boolean) =>
  wellFormed(
    keepLineBreaks
      ? text
          .replace(/\r\n?/g, '\n')
          .replace(/\t/g, ' ')
          .replace(/(?!\n)\p{Cc}/gu, '')
      : withoutInvisibleFormatting(text.replace(/\t/g, ' ').replace(/\p{Cc}/gu, '')),
  );

/** A text of at most `max` characters (blank is none), or why not. */
function text(
  value: string | null | undefined,
  path: string,
  max: number,
  keepLineBreaks: boolean,
): Result<string | null, ProfileFieldError> {
  if (value === null || value === undefined) return ok(null);
  const kept = cleaned(value, keepLineBreaks).trim();
  if (length(kept) > max) return err({ path, message: `At most ${max} characters.` });
  return ok(kept === '' ? null : kept);
}

/**
 * The profile `changes` make of `current`, with every text rule applied (the asset references are only checked
 * for their form here; whether each names a picture of the user's is `checkProfileAssets`'s).
 */
export function applyProfileChanges(
  current: Profile,
  changes: ProfileChanges,
): Result<Profile, ProfileFieldError> {
  const next = { ...current } as { -readonly [K in keyof Profile]: Profile[K] };
  if (changes.displayName !== undefined) {
    const name = text(changes.displayName, 'display_name', PROFILE_RULES.displayNameMaxCharacters, false);
    if (!name.ok) return name;
    next.displayName = name.value;
  }
  if (changes.bio !== undefined) {
    const bio = text(changes.bio, 'bio', PROFILE_RULES.bioMaxCharacters, true);
    if (!bio.ok) return bio;
    next.bio = bio.value;
  }
  for (const picture of ['avatar', 'header'] as const) {
    const value = changes[picture];
    if (value === undefined) continue;
    if (value === null || value.trim() === '') next[picture] = null;
    else {
      const name = parseAssetName(value.trim());
      if (!name.ok) return err({ path: picture, message: name.error.message });
      next[picture] = name.value;
    }
  }
  if (changes.fields !== undefined) {
    const fields = checkFields(changes.fields);
    if (!fields.ok) return fields;
    next.fields = fields.value;
  }
  if (changes.pinned !== undefined) {
    const pinned = checkPinned(changes.pinned);
    if (!pinned.ok) return pinned;
    next.pinned = pinned.value;
  }
  if (changes.indexable !== undefined) next.indexable = changes.indexable;
  if (changes.manuallyApprovesFollowers !== undefined)
    next.manuallyApprovesFollowers = changes.manuallyApprovesFollowers;
  return ok(next);
}

function checkFields(fields: readonly ProfileField[]): Result<ProfileField[], ProfileFieldError> {
  const kept: ProfileField[] = [];
  for (const [i, field] of fields.entries()) {
    const name = text(field.name, `fields.${i}.name`, PROFILE_RULES.fieldNameMaxCharacters, false);
    if (!name.ok) return name;
    const value = text(field.value, `fields.${i}.value`, PROFILE_RULES.fieldValueMaxCharacters, false);
    if (!value.ok) return value;
    // A row left blank in the form is no field; a field needs a name.
    if (name.value === null && value.value === null) continue;
    if (name.value === null) return err({ path: `fields.${i}.name`, message: 'A field needs a name.' });
    kept.push({ name: name.value, value: value.value ?? '' });
  }
  if (kept.length > PROFILE_RULES.fieldsMax)
    return err({ path: 'fields', message: `At most ${PROFILE_RULES.fieldsMax} fields.` });
  return ok(kept);
}

function checkPinned(names: readonly string[]): Result<AssetName[], ProfileFieldError> {
  const unique = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
  if (unique.length > PROFILE_RULES.pinnedMax)
    return err({ path: 'pinned', message: `At most ${PROFILE_RULES.pinnedMax} pinned assets.` });
  const parsed: AssetName[] = [];
  for (const name of unique) {
    const asset = parseAssetName(name);
    if (!asset.ok) return err({ path: 'pinned', message: asset.error.message });
    parsed.push(asset.value);
  }
  return ok(parsed);
}

/** The assets a profile names: its pictures and its pins, once each. */
export const assetsNamedBy = (profile: Profile): AssetName[] => [
  ...new Set([profile.avatar, profile.header, ...profile.pinned].filter((n): n is AssetName => n !== null)),
];

/**
 * Whether each asset the profile names may stand there: an avatar or header must be the user's own live https
 * picture, a pin one of the user's own live assets. `found` holds the assets as stored (absent: no such asset).
 */
export function checkProfileAssets(
  profile: Profile,
  owner: Username,
  found: ReadonlyMap<string, Asset>,
): Result<Profile, ProfileFieldError> {
  for (const picture of ['avatar', 'header'] as const) {
    const name = profile[picture];
    const asset = name === null ? null : found.get(name);
    if (name !== null && !(asset && isProfilePicture(asset, owner)))
      return err({
        path: picture,
        message: 'Choose one of your own pictures (an image asset with an https URL).',
      });
  }
  for (const name of profile.pinned) {
    const asset = found.get(name);
    if (!asset || asset.owner !== owner || asset.deletedAt !== null)
      return err({ path: 'pinned', message: `'${name}' is not one of your assets.` });
  }
  return ok(profile);
}

/**
 * What becomes of the owner's profile once `asset` is as given (changed or deleted): a picture that is no longer a
 * live https image, or a pin that is deleted, leaves the profile. Null when the profile does not change.
 */
export function profileAfterAssetChange(profile: Profile, asset: Asset): Profile | null {
  const picture = isProfilePicture(asset, asset.owner);
  const avatar = profile.avatar === asset.name && !picture ? null : profile.avatar;
  const header = profile.header === asset.name && !picture ? null : profile.header;
  const pinned = asset.deletedAt === null ? profile.pinned : profile.pinned.filter((n) => n !== asset.name);
  if (avatar === profile.avatar && header === profile.header && pinned.length === profile.pinned.length)
    return null;
  return { ...profile, avatar, header, pinned };
}

/**
 * The profile a change of `asset` (as the change leaves it) makes its owner's: a new profile when a reference goes
 * (see profileAfterAssetChange), the same one when the asset is a picture the actor shows (its url and alt text are
 * in the actor document, which changes all the same), or null when the actor and its pins are untouched.
 */
export function profileTouchedBy(profile: Profile, asset: Asset): Profile | null {
  const changed = profileAfterAssetChange(profile, asset);
  if (changed) return changed;
  return profile.avatar === asset.name || profile.header === asset.name ? profile : null;
}

/** Whether two profiles say the same (field by field, fields and pins in order). */
export function sameProfile(a: Profile, b: Profile): boolean {
  return (
    a.displayName === b.displayName &&
    a.bio === b.bio &&
    a.avatar === b.avatar &&
    a.header === b.header &&
    a.indexable === b.indexable &&
    a.manuallyApprovesFollowers === b.manuallyApprovesFollowers &&
    a.pinned.length === b.pinned.length &&
    a.pinned.every((name, i) => name === b.pinned[i]) &&
    a.fields.length === b.fields.length &&
    a.fields.every((field, i) => field.name === b.fields[i]!.name && field.value === b.fields[i]!.value)
  );
}
