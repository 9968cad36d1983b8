// What protects an account besides its password: a second factor (TOTP, RFC 6238), recovery codes, passkeys
// (WebAuthn), the short-lived challenges of the sign-in steps and reset links, and the account's history of changes.
import type { Username } from './user.js';

/** A challenge (a WebAuthn ceremony, a sign-in's second step) lives this long, and is used once. */
export const CHALLENGE_LIFETIME_SECONDS = 5 * 60;
/** An operator's reset link (`l2 users reset`) lives this long, and is used once. */
export const RESET_LINK_LIFETIME_SECONDS = 60 * 60;
/** How many recovery codes a person gets at once. */
export const RECOVERY_CODE_COUNT = 10;
/** At most this many passkeys per account. */
export const MAX_PASSKEYS = 20;
/** A passkey's name: what the person calls it ("Phone", "Work laptop"). */
export const PASSKEY_NAME_MAX_CHARACTERS = 64;
/** How many of the latest entries of the history the Account page and the API show. */
export const HISTORY_SHOWN = 50;

/** A confirmed second factor: the TOTP secret (base32) and the last time-step a code was accepted for. */
export interface TotpFactor {
  readonly secret: string;
  readonly enabledAt: Date;
  /** A code is accepted only for a later time-step than this one, so a code works once (0: none used yet). */
  readonly lastUsedStep: number;
}

/** A TOTP secret shown to the person and waiting for its first code; it protects nothing yet. */
export interface TotpEnrolment {
  readonly secret: string;
  readonly createdAt: Date;
}

/** A recovery code, by the SHA-256 hex of its text (the text itself is shown once and never stored). */
export interface RecoveryCode {
  readonly hash: string;
  readonly usedAt: Date | null;
}

/** A WebAuthn credential of a person (a discoverable one: the authenticator keeps the account with it). */
export interface Passkey {
  /** The credential id, base64url. Unique across the service. */
  readonly credentialId: string;
  readonly username: Username;
  /** The WebAuthn user handle (base64url, random): the same for every passkey of the account. */
  readonly userHandle: string;
  readonly name: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The signature counter last seen (0 for authenticators that keep none). */
  readonly counter: number;
  readonly transports: readonly string[];
  /** Whether the authenticator may back the key up (a synced passkey): `swk` rather than `hwk`. */
  readonly backupEligible: boolean;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/** Everything that protects one account besides its password. */
export interface AccountFactors {
  readonly totp: TotpFactor | null;
  readonly enrolment: TotpEnrolment | null;
  readonly recoveryCodes: readonly RecoveryCode[];
  readonly passkeys: readonly Passkey[];
}

export const NO_FACTORS: AccountFactors = { totp: null, enrolment: null, recoveryCodes: [], passkeys: [] };

/** A password login of this account needs a second step: the second factor is on. */
export const needsSecondStep = (factors: AccountFactors): boolean => factors.totp !== null;

export const unusedRecoveryCodes = (factors: AccountFactors): number =>
  factors.recoveryCodes.filter((code) => code.usedAt === null).length;

/** The changes the account history records. */
export const ACCOUNT_EVENT_KINDS = [
  'passkey_added',
  'passkey_removed',
  'second_factor_enabled',
  'second_factor_disabled',
  'recovery_codes_regenerated',
  'recovery_code_used',
  'password_reset',
  'factors_cleared',
] as const;

export type AccountEventKind = (typeof ACCOUNT_EVENT_KINDS)[number];

/** One entry of an account's history: what changed, when, and from which address. */
export interface AccountEvent {
  readonly username: Username;
  readonly kind: AccountEventKind;
  /** What it concerned, for a person to read (a passkey's name); null when the kind says it all. */
  readonly detail: string | null;
  readonly at: Date;
  /** The client address of the request (null when an operator's command did it). */
  readonly address: string | null;
}

/** What each kind of entry says on the Account page. */
export const ACCOUNT_EVENT_TEXT: Readonly<Record<AccountEventKind, string>> = {
  passkey_added: 'Passkey added',
  passkey_removed: 'Passkey removed',
  second_factor_enabled: 'Two-step sign-in turned on',
  second_factor_disabled: 'Two-step sign-in turned off',
  recovery_codes_regenerated: 'New recovery codes made (the old ones no longer work)',
  recovery_code_used: 'A recovery code was used to sign in',
  password_reset: "Password set through an operator's reset link (every session ended)",
  factors_cleared: 'Two-step sign-in and passkeys removed by the reset link',
};

/** The kinds of short-lived, single-use challenges the store keeps. */
export type ChallengeKind = 'passkey_registration' | 'passkey_sign_in' | 'second_step' | 'password_reset';

/**
 * A challenge, stored by the SHA-256 hex of its value (the value itself goes to the client and is never stored).
 * `username` is whom it was made for (null for a passkey sign-in, where nobody is known yet).
 */
export interface Challenge {
  readonly idHash: string;
  readonly kind: ChallengeKind;
  readonly username: Username | null;
  /** What the step after needs to know (a reset link's `clearFactors`), as plain JSON values. */
  readonly data: Readonly<Record<string, string | number | boolean>>;
  readonly expiresAt: Date;
}

/** A passkey's name as stored: trimmed, inner runs of white space made one space. */
export const passkeyName = (name: string): string => name.trim().replace(/\s+/g, ' ');
