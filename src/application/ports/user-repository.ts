import type { AccountMove } from '../../domain/account-move.js';
import type { IssuedToken, Revocation } from '../../domain/revocation.js';
import type { Profile } from '../../domain/profile.js';
import type { User, UserProfile, Username } from '../../domain/user.js';
import type { Positioned } from './positioned.js';

/**
 * A user's profile as a write leaves it. Written only while the stored `profileVersion` is `expectedVersion`,
 * which then becomes `expectedVersion + 1`; in the same write, one `profileUpdateJob` per distinct delivery inbox
 * of the user's followers (a shared inbox once) is queued, replacing any still waiting for that inbox — and then,
 * with `moveDocument`, one `moveJob` per the same inbox: each inbox gets the Update showing `movedTo` before the
 * Move (API.md §4.3: `movedTo` is served before the first Move leaves).
 */
export interface ProfileChange {
  readonly username: Username;
  readonly expectedVersion: number;
  readonly profile: Profile;
  /** The account's move as the write leaves it (kept with the profile): the one read, unless this is a move. */
  readonly move: AccountMove;
  /** The Move to queue for every follower's server, when this write is a move; absent otherwise. */
  readonly moveDocument?: Record<string, unknown>;
}

export interface UserRepository {
  /**
   * Stores a new user — and, when given, the record of its first session token, in the same write. Returns
   * `'taken'` (writing nothing) when the username exists already, deleted accounts included — decided by the store's
   * own uniqueness guarantee, so of two concurrent calls with one name exactly one returns `'created'`.
   */
  create(user: User, firstSession?: IssuedToken): Promise<'created' | 'taken'>;
  /** The user with this (normalised) username, credentials included, deleted or not; null when there is none. */
  findByUsername(username: Username): Promise<User | null>;
  /** The public profile (no credentials), deleted or not; null when there is none. */
  findProfile(username: Username): Promise<UserProfile | null>;
  /** How many accounts exist and are not deleted. */
  count(): Promise<number>;
  /** Up to `limit` live accounts registered before position `before` (or the newest, with null), newest first. */
  listOlder(before: number | null, limit: number): Promise<Positioned<UserProfile>[]>;
  /** Up to `limit` live accounts registered after position `after`, OLDEST first. */
  listNewer(after: number, limit: number): Promise<Positioned<UserProfile>[]>;
  /**
   * Replaces a live user's password hash and records `revocations` (queueing their notices, as
   * RevocationStore.revoke does), in one write. Returns how many revocations were new, or null (writing nothing)
   * when there is no live user of that name.
   */
  changePassword(
    username: Username,
    passwordHash: string,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<number | null>;
  /**
   * Marks an undeleted account disabled at `now` (keeping the first time, when it is disabled already) and records
   * `revocations` (queueing their notices, as RevocationStore.revoke does), in one write. Returns how many
   * revocations were new, or null (writing nothing) when there is no undeleted account of that name.
   */
  disable(username: Username, revocations: readonly Revocation[], now: Date): Promise<number | null>;
  /** Enables an undeleted account again (whether or not it was disabled); false when there is none of that name. */
  enable(username: Username): Promise<boolean>;
  /**
   * Replaces a live user's hash with another hash of the same password (made at the current cost) — only while the
   * stored hash is still `previousHash`, so it never undoes a password change made meanwhile. Returns whether it
   * replaced it.
   */
  rehashPassword(username: Username, previousHash: string, passwordHash: string): Promise<boolean>;
  /**
   * Writes a live user's profile as `change` says (see ProfileChange), queueing its deliveries at `now`. `'conflict'`
   * (writing nothing) when the stored version is no longer the expected one; `'not_found'` when there is no live
   * user of that name.
   */
  updateProfile(change: ProfileChange, now: Date): Promise<'updated' | 'conflict' | 'not_found'>;
}
