// A user's profile as every store keeps it (SQLite as JSON text, MongoDB as a subdocument, an export file as a
// record's field): plain JSON with every field present, in one order, so that the same profile is the same bytes in
// every store and every export.
import type { AssetName } from '../../domain/asset.js';
import { EMPTY_PROFILE, type Profile, type ProfileField } from '../../domain/profile.js';
import type { TransferProfile } from '../../application/ports/store-transfer.js';

/** The export file's profile record is exactly what a store keeps: one shape, so a profile is the same bytes in both. */
export type StoredProfile = TransferProfile;

/** A copy of `profile` sharing nothing mutable with it, with exactly the fields a store keeps. */
export function storedProfile(profile: Profile): StoredProfile {
  return {
    displayName: profile.displayName,
    bio: profile.bio,
    avatar: profile.avatar,
    header: profile.header,
    fields: profile.fields.map(({ name, value }) => ({ name, value })),
    pinned: [...profile.pinned],
    indexable: profile.indexable,
    manuallyApprovesFollowers: profile.manuallyApprovesFollowers,
  };
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The profile a store holds, as the domain's type. Absent (a user written before profiles existed) is the empty
 * profile, and so is each field absent from what is held: a store never answers a half profile.
 */
export function profileFromStored(stored: Partial<StoredProfile> | null | undefined): Profile {
  if (stored === null || stored === undefined) return copyOfProfile(EMPTY_PROFILE);
  const fields: ProfileField[] = Array.isArray(stored.fields)
    ? stored.fields.map(({ name, value }) => ({ name, value }))
    : [];
  return {
    displayName: textOrNull(stored.displayName),
    bio: textOrNull(stored.bio),
    avatar: textOrNull(stored.avatar) as AssetName | null,
    header: textOrNull(stored.header) as AssetName | null,
    fields,
    pinned: Array.isArray(stored.pinned) ? (stored.pinned.map(String) as AssetName[]) : [],
    indexable: stored.indexable === true,
    manuallyApprovesFollowers: stored.manuallyApprovesFollowers === true,
  };
}

/** A copy of `profile` sharing nothing mutable with it. */
export const copyOfProfile = (profile: Profile): Profile => profileFromStored(storedProfile(profile));

/** The JSON text SQLite keeps a profile as. */
export const profileJson = (profile: Profile): string => JSON.stringify(storedProfile(profile));

/** A profile from SQLite's JSON text (null: a user written before profiles existed). */
export const profileFromJson = (json: string | null): Profile =>
  profileFromStored(json === null ? null : (JSON.parse(json) as Partial<StoredProfile>));
