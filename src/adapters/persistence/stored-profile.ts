// A user's profile as every store keeps it (SQLite as JSON text, MongoDB as a subdocument, an export file as a
// record's field): plain JSON with every field present, in one order, so that the same profile is the same bytes in
// every store and every export.
import { NO_MOVE, type AccountMove } from '../../domain/account-move.js';
import type { AssetName } from '../../domain/asset.js';
import { EMPTY_PROFILE, type Profile, type ProfileField } from '../../domain/profile.js';
import type { TransferMove, TransferProfile } from '../../application/ports/store-transfer.js';

/** The export file's profile record is exactly what a store keeps: one shape, so a profile is the same bytes in both. */
export type StoredProfile = TransferProfile;

/**
 * A copy of `profile` sharing nothing mutable with it, with exactly the fields a store keeps; the account's `move`
 * (API.md §4.3) rides along in the same JSON, and only once there was one — an account that never moved is the same
 * bytes as before moves existed.
 */
export function storedProfile(profile: Profile, move: AccountMove = NO_MOVE): StoredProfile {
  return {
    displayName: profile.displayName,
    bio: profile.bio,
    avatar: profile.avatar,
    header: profile.header,
    fields: profile.fields.map(({ name, value }) => ({ name, value })),
    pinned: [...profile.pinned],
    indexable: profile.indexable,
    manuallyApprovesFollowers: profile.manuallyApprovesFollowers,
    alsoKnownAs: [...profile.alsoKnownAs],
    ...(sameMove(move, NO_MOVE) ? {} : { move: storedMove(move) }),
  };
}

const isoOrNull = (date: Date | null): string | null => (date === null ? null : date.toISOString());
const dateOrNull = (value: unknown): Date | null =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;

const storedMove = (move: AccountMove): TransferMove => ({
  movedTo: move.movedTo,
  movedAt: isoOrNull(move.movedAt),
  lastMovedAt: isoOrNull(move.lastMovedAt),
  moves: move.moves,
});

const sameMove = (a: AccountMove, b: AccountMove): boolean =>
  a.movedTo === b.movedTo &&
  a.moves === b.moves &&
  isoOrNull(a.movedAt) === isoOrNull(b.movedAt) &&
  isoOrNull(a.lastMovedAt) === isoOrNull(b.lastMovedAt);

/** The move a stored profile holds: none held (never moved, or a profile from before moves) is `NO_MOVE`. */
export function moveFromStored(stored: Partial<StoredProfile> | null | undefined): AccountMove {
  const move = stored?.move;
  if (move === null || move === undefined || typeof move !== 'object') return NO_MOVE;
  return {
    movedTo: textOrNull(move.movedTo),
    movedAt: dateOrNull(move.movedAt),
    lastMovedAt: dateOrNull(move.lastMovedAt),
    moves: typeof move.moves === 'number' && Number.isInteger(move.moves) ? move.moves : 0,
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
    alsoKnownAs: Array.isArray(stored.alsoKnownAs) ? stored.alsoKnownAs.map(String) : [],
  };
}

/** A copy of `profile` sharing nothing mutable with it. */
export const copyOfProfile = (profile: Profile): Profile => profileFromStored(storedProfile(profile));

/** The JSON text SQLite and PostgreSQL keep a profile (and the account's move) as. */
export const profileJson = (profile: Profile, move: AccountMove = NO_MOVE): string =>
  JSON.stringify(storedProfile(profile, move));

const parsedJson = (json: string | null): Partial<StoredProfile> | null =>
  json === null ? null : (JSON.parse(json) as Partial<StoredProfile>);

/** A profile from SQLite's JSON text (null: a user written before profiles existed). */
export const profileFromJson = (json: string | null): Profile => profileFromStored(parsedJson(json));

/** The profile and the move the JSON text holds. */
export const profileAndMoveFromJson = (json: string | null): { profile: Profile; move: AccountMove } => {
  const stored = parsedJson(json);
  return { profile: profileFromStored(stored), move: moveFromStored(stored) };
};
