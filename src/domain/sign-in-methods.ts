// How a person signed in, as RFC 8176's Authentication Method Reference values: what a token's `amr` claim says,
// so an L1 server can ask for a strong sign-in.
import { err, ok, type Result } from './result.js';

/**
 * The values L2 uses: `pwd` a password, `otp` a one-time code (TOTP, or a recovery code — a one-time password
 * too), `hwk` a key kept in hardware (a passkey bound to its device), `swk` a key kept in software (a synced
 * passkey, which leaves its device), `mfa` more than one factor.
 */
export const AUTHENTICATION_METHODS = ['pwd', 'otp', 'hwk', 'swk', 'mfa'] as const;

export type AuthenticationMethod = (typeof AUTHENTICATION_METHODS)[number];

/** Which methods a sign-in used; never empty, each once, in the order of AUTHENTICATION_METHODS. */
export type SignInMethods = readonly AuthenticationMethod[];

/** A password alone: a registration, or a login of an account without a second factor. */
export const PASSWORD_ONLY: SignInMethods = ['pwd'];

/** A password and a one-time code (the authenticator app's, or a recovery code): two factors. */
export const PASSWORD_AND_CODE: SignInMethods = ['pwd', 'otp', 'mfa'];

/**
 * A passkey with user verification (required by L2): something the person has and something they know or are (the
 * device's PIN or biometrics), so two factors on its own. A passkey that may be backed up (synced to a cloud
 * account) lives in software; one bound to its device, in hardware.
 */
export const passkeyMethods = (backupEligible: boolean): SignInMethods => [
  backupEligible ? 'swk' : 'hwk',
  'mfa',
];

/**
 * The methods of a token's claims. Tokens issued before L2 recorded them carry no `amr`: every one of them came from
 * a password (registration or login), so they read as a password sign-in.
 */
export const methodsOf = (claims: { readonly amr?: SignInMethods }): SignInMethods =>
  claims.amr ?? PASSWORD_ONLY;

/** An `amr` claim as a signed payload holds it: a non-empty array of known values, each once. */
export function parseSignInMethods(value: unknown): Result<SignInMethods, 'invalid'> {
  if (!Array.isArray(value) || value.length === 0 || value.length > AUTHENTICATION_METHODS.length)
    return err('invalid');
  const known = new Set<string>(AUTHENTICATION_METHODS);
  if (!value.every((v) => typeof v === 'string' && known.has(v))) return err('invalid');
  if (new Set(value).size !== value.length) return err('invalid');
  return ok(value as SignInMethods);
}
