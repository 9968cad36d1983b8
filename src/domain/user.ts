import type { AccountMove } from './account-move.js';
import type { Profile } from './profile.js';
import { err, ok, type Result } from './result.js';

/** A username after normalisation: lower-case, 3–30 characters of [a-z0-9_]. */
export type Username = string & { readonly __brand: 'Username' };

const USERNAME_MIN = 3;
const USERNAME_MAX = 30;

/**
 * The username rule, once: every spelling of it — the request schema, the register form's attributes, the parser of
 * local actor ids, the hot path's URL pattern — is built from these parts. Patterns are unanchored, as a form's
 * `pattern` attribute and a path pattern take them.
 */
export const USERNAME_RULE = {
  minCharacters: USERNAME_MIN,
  maxCharacters: USERNAME_MAX,
  /** A stored (lower-case) username. */
  pattern: `[a-z0-9_]{${USERNAME_MIN},${USERNAME_MAX}}`,
  /** What a person may type: capitals too, since the name is lower-cased before any check. */
  typedPattern: `[A-Za-z0-9_]{${USERNAME_MIN},${USERNAME_MAX}}`,
  message: `Use ${USERNAME_MIN}–${USERNAME_MAX} characters of a–z, 0–9 and _.`,
} as const;

export const USERNAME_PATTERN = new RegExp(`^${USERNAME_RULE.pattern}$`);

/** Usernames are case-insensitive: input is lower-cased before any check, so `Alice` and `alice` are one user. */
export function normaliseUsername(input: string): Result<Username, 'invalid_username'> {
  const lowered = input.toLowerCase();
  return USERNAME_PATTERN.test(lowered) ? ok(lowered as Username) : err('invalid_username');
}

/** What anyone may see of an account: no secret in it. */
export interface UserProfile {
  readonly username: Username;
  /** SPKI PEM, published in the actor document. */
  readonly publicKeyPem: string;
  readonly createdAt: Date;
  /** Set once the account is deleted: it then answers 410 and appears in no list; its name stays taken. */
  readonly deletedAt: Date | null;
  /**
   * Set while an operator has the account disabled (`l2 users disable`): it cannot sign in and answers 410, but
   * keeps its name, assets, followers and place in lists, and comes back as it was when enabled.
   */
  readonly disabledAt: Date | null;
  /** What the person tells about themself (API.md §4.2). */
  readonly profile: Profile;
  /** Counts the changes of what the actor document shows; names each change's `Update` (`<actor>#updates/<n>`). */
  readonly profileVersion: number;
  /** Where the fediverse presence moved (API.md §4.3), kept with the profile; `NO_MOVE` when it never did. */
  readonly move: AccountMove;
}

/** An account with its credentials: read only where a password is checked or something is signed. */
export interface User extends UserProfile {
  readonly passwordHash: string;
  /** PKCS#8 PEM. */
  readonly privateKeyPem: string;
}

/** The public part of an account. */
export const profileOf = (user: User): UserProfile => ({
  username: user.username,
  publicKeyPem: user.publicKeyPem,
  createdAt: user.createdAt,
  deletedAt: user.deletedAt,
  disabledAt: user.disabledAt,
  profile: user.profile,
  profileVersion: user.profileVersion,
  move: user.move,
});

export type AccountState = 'active' | 'disabled' | 'deleted';

export const accountState = (profile: UserProfile): AccountState =>
  profile.deletedAt !== null ? 'deleted' : profile.disabledAt !== null ? 'disabled' : 'active';

/** Neither deleted nor disabled: it may sign in, be followed, and answer as an actor. */
export const isActive = (profile: UserProfile): boolean => accountState(profile) === 'active';
