import type * as WebAuthnLibrary from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type {
  CeremonyOptions,
  PasskeyCeremonies,
  RegisteredCredential,
  VerifiedAssertion,
} from '../../application/ports/passkey-ceremonies.js';
import { CHALLENGE_LIFETIME_SECONDS, type Passkey } from '../../domain/account-security.js';

/** How long the browser lets the person take (the challenge lives as long in the store). */
const TIMEOUT_MS = CHALLENGE_LIFETIME_SECONDS * 1000;
/** A client data JSON longer than this is no browser's: refused before it is parsed. */
const MAX_CLIENT_DATA_CHARACTERS = 4096;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** The `response` member of a WebAuthn response in its JSON form, or null. */
function innerOf(response: unknown): Record<string, unknown> | null {
  if (!isRecord(response) || !isRecord(response.response)) return null;
  return response.response;
}

/** The relying party as the browser must have seen it: PUBLIC_URL's host (its id) and its origin. */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
  /** What an authenticator shows the person ("L2 at l2.example"). */
  readonly name: string;
}

/**
 * The WebAuthn ceremonies on @simplewebauthn/server: a maintained library made for exactly this (attestation
 * formats, COSE keys of every algorithm browsers use, the client data and authenticator data checks, counters), so
 * L2 writes none of the parsing or signature checks itself. Attestation is not asked for (`none`): L2 trusts the
 * person's choice of authenticator, as the big sites do for passkeys.
 */
/**
 * Loaded on first use: the library and what it pulls in (ASN.1, CBOR, COSE) add ~30 MiB to the resident set of a
 * process that imports it, which an instance whose users never add a passkey should not carry when idle.
 */
let library: Promise<typeof WebAuthnLibrary> | undefined;
const webAuthn = () => (library ??= import('@simplewebauthn/server'));

export class SimpleWebAuthnPasskeys implements PasskeyCeremonies {
  constructor(private readonly rp: RelyingParty) {}

  async registrationOptions(input: {
    readonly challenge: string;
    readonly username: string;
    readonly userHandle: string;
    readonly exclude: readonly Passkey[];
  }): Promise<CeremonyOptions> {
    const options = await (
      await webAuthn()
    ).generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: input.username,
      userDisplayName: input.username,
      userID: new Uint8Array(Buffer.from(input.userHandle, 'base64url')),
      challenge: new Uint8Array(Buffer.from(input.challenge, 'base64url')),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: input.exclude.map((p) => ({
        id: p.credentialId,
        transports: [...p.transports],
      })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
    });
    return options as unknown as CeremonyOptions;
  }

  async signInOptions(input: { readonly challenge: string }): Promise<CeremonyOptions> {
    const options = await (
      await webAuthn()
    ).generateAuthenticationOptions({
      rpID: this.rp.id,
      challenge: new Uint8Array(Buffer.from(input.challenge, 'base64url')),
      timeout: TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials: [],
    });
    return options as unknown as CeremonyOptions;
  }

  challengeOf(response: unknown): string | null {
    const clientData = innerOf(response)?.clientDataJSON;
    if (typeof clientData !== 'string' || clientData.length > MAX_CLIENT_DATA_CHARACTERS) return null;
    if (!BASE64URL.test(clientData)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as unknown;
      return isRecord(parsed) && typeof parsed.challenge === 'string' && BASE64URL.test(parsed.challenge)
        ? parsed.challenge
        : null;
    } catch {
      return null;
    }
  }

  assertionOf(
    response: unknown,
  ): { readonly credentialId: string; readonly userHandle: string | null } | null {
    if (!isRecord(response) || typeof response.id !== 'string' || !BASE64URL.test(response.id)) return null;
    if (response.id.length === 0 || response.id.length > 1400) return null;
    const handle = innerOf(response)?.userHandle;
    return {
      credentialId: response.id,
      userHandle: typeof handle === 'string' && BASE64URL.test(handle) ? handle : null,
    };
  }

  async verifyRegistration(response: unknown, challenge: string): Promise<RegisteredCredential | null> {
    try {
      const verified = await (
        await webAuthn()
      ).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserPresence: true,
        requireUserVerification: true,
      });
      if (!verified.verified) return null;
      const { credential, credentialDeviceType } = verified.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        backupEligible: credentialDeviceType === 'multiDevice',
      };
    } catch {
      // Whatever the library refused (a malformed response, another origin, no user verification…) is refused here.
      return null;
    }
  }

  async verifySignIn(
    response: unknown,
    challenge: string,
    passkey: Passkey,
  ): Promise<VerifiedAssertion | null> {
    try {
      const verified = await (
        await webAuthn()
      ).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: [...passkey.transports],
        },
      });
      // The library refuses a counter that did not move on (when either side keeps one): a cloned authenticator.
      if (!verified.verified || !verified.authenticationInfo.userVerified) return null;
      return { counter: verified.authenticationInfo.newCounter };
    } catch {
      return null;
    }
  }
}
