import type { Passkey } from '../../domain/account-security.js';

/** The options a browser hands to `navigator.credentials.create()` / `.get()` (WebAuthn's JSON form). */
export type CeremonyOptions = Record<string, unknown>;

/** What a verified registration says about the new credential. */
export interface RegisteredCredential {
  readonly credentialId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly backupEligible: boolean;
}

/** What a verified sign-in assertion says. */
export interface VerifiedAssertion {
  /** The authenticator's new signature counter (0 when it keeps none). */
  readonly counter: number;
}

/**
 * WebAuthn's two ceremonies for this relying party (its id is PUBLIC_URL's host, its origin PUBLIC_URL's origin):
 * the options a browser needs, and the verification of what it sends back. Resident keys and user verification are
 * required. A response is untrusted input: anything malformed, for another origin or relying party, unsigned by the
 * key, without user verification, or with a counter that went backwards verifies as null — never a throw.
 */
export interface PasskeyCeremonies {
  /** Options to create a discoverable credential for the account, not one of `exclude` again. */
  registrationOptions(input: {
    readonly challenge: string;
    readonly username: string;
    readonly userHandle: string;
    readonly exclude: readonly Passkey[];
  }): Promise<CeremonyOptions>;
  /** Options to sign in with any discoverable credential of this relying party (no account named). */
  signInOptions(input: { readonly challenge: string }): Promise<CeremonyOptions>;
  /** The challenge a response answers (from its client data), or null when it is no WebAuthn response. */
  challengeOf(response: unknown): string | null;
  /** The credential id and user handle a sign-in response names, or null. */
  assertionOf(
    response: unknown,
  ): { readonly credentialId: string; readonly userHandle: string | null } | null;
  verifyRegistration(response: unknown, challenge: string): Promise<RegisteredCredential | null>;
  verifySignIn(response: unknown, challenge: string, passkey: Passkey): Promise<VerifiedAssertion | null>;
}
