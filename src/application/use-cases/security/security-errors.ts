// The outcomes a change of what protects an account, or a sign-in step, may be refused with: one union, so that
// the HTTP adapter has one table for them (each route declares the part it can meet).
import type { PasswordCheckError } from '../../services/password-check.js';

export type SecurityError =
  /** The password was wrong, or the passkey not accepted; the login limits ran out; too much hashing waits. */
  | PasswordCheckError
  /** A token scoped to an L1 server: it can change nothing. */
  | { readonly type: 'forbidden' }
  /** A field is not what it must be (a code that is not the app's, a passkey response the browser did not make…). */
  | { readonly type: 'invalid_request'; readonly path: string; readonly message: string }
  /** A second step, a WebAuthn ceremony or a reset link that is unknown, used or expired: start again. */
  | { readonly type: 'challenge_expired' }
  /** The second factor is on already. */
  | { readonly type: 'already_enabled' }
  /** The second factor is off (recovery codes need it). */
  | { readonly type: 'not_enabled' }
  /** No passkey of the account has this id. */
  | { readonly type: 'not_found' }
  /** The authenticator's credential is registered already. */
  | { readonly type: 'passkey_exists' }
  /** The account has as many passkeys as it may. */
  | { readonly type: 'too_many_passkeys' };

/** The outcome of a store write refused because the account is gone (deleted meanwhile): as a wrong password. */
export const accountGone = { type: 'invalid_credentials' } as const;
