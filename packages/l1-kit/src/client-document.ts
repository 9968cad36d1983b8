import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, SignJWT } from 'jose';
import type { ClientKey } from './client-key.js';
import type { KitResponse } from './types.js';

/** RFC 7523 §2.2: how a `private_key_jwt` assertion is named in the token request. */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** An assertion is made for one request, so it lives one minute (L2 accepts at most ten). */
const ASSERTION_LIFETIME_SECONDS = 60;
/**
 * How long L2 may keep the document (it keeps one at most a day). Short, so that a changed key or name reaches L2
 * within ten minutes; each sign-in costs L2 at most one fetch per ten minutes.
 */
export const DOCUMENT_MAX_AGE_SECONDS = 600;

/** What a document client is: its `client_id` (the document's URL), where L2 sends it, its key and its name. */
export interface ClientSettings {
  clientId: string;
  redirectUri: string;
  backchannelLogoutUri: string;
  key: ClientKey;
  name: string | undefined;
  uri: string | undefined;
  logoUri: string | undefined;
}

/**
 * The kit as a Client ID Metadata Document client (API.md §2.5): the document it serves at its `client_id`, and the
 * `private_key_jwt` assertions (RFC 7523) it authenticates to L2 with — signed with the key the document publishes,
 * a fresh `jti` each time, because L2 refuses an assertion it has seen before.
 */
export class ClientDocument {
  #kid: Promise<string> | undefined;

  constructor(
    private readonly settings: ClientSettings,
    /** The clock, in epoch milliseconds. */
    private readonly now: () => number,
  ) {}

  get clientId(): string {
    return this.settings.clientId;
  }

  /** The document: exactly what L2 checks, and the optional names it shows on its consent page. */
  async document(): Promise<Record<string, unknown>> {
    const { clientId, redirectUri, backchannelLogoutUri, key, name, uri, logoUri } = this.settings;
    return {
      client_id: clientId,
      ...(name === undefined ? {} : { client_name: name }),
      ...(uri === undefined ? {} : { client_uri: uri }),
      ...(logoUri === undefined ? {} : { logo_uri: logoUri }),
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: key.alg,
      jwks: { keys: [{ ...key.publicJwk, kid: await this.#keyId(), use: 'sig', alg: key.alg }] },
      backchannel_logout_uri: backchannelLogoutUri,
      backchannel_logout_session_required: true,
    };
  }

  /** The answer to `GET <client_id>`: the document as JSON, cacheable for {@link DOCUMENT_MAX_AGE_SECONDS}. */
  async response(): Promise<KitResponse> {
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        'Cache-Control': `public, max-age=${DOCUMENT_MAX_AGE_SECONDS}`,
        'Access-Control-Allow-Origin': '*',
      },
      body: JSON.stringify(await this.document()),
    };
  }

  /** The form fields that authenticate a request to L2 (`audience`: L2's issuer): a fresh assertion each call. */
  async authentication(audience: string): Promise<Record<string, string>> {
    const iat = Math.floor(this.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: this.settings.key.alg, kid: await this.#keyId(), typ: 'JWT' })
      .setIssuer(this.settings.clientId)
      .setSubject(this.settings.clientId)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ASSERTION_LIFETIME_SECONDS)
      .setJti(randomUUID())
      .sign(this.settings.key.privateKey);
    return {
      client_id: this.settings.clientId,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: assertion,
    };
  }

  /** The key's RFC 7638 thumbprint, its `kid` in the document and in every assertion. */
  #keyId(): Promise<string> {
    this.#kid ??= calculateJwkThumbprint(
      this.settings.key.publicJwk as Parameters<typeof calculateJwkThumbprint>[0],
    );
    return this.#kid;
  }
}
