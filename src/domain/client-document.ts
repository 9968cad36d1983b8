// Client ID Metadata Documents (API.md §2.5, draft-ietf-oauth-client-id-metadata-document): a client that publishes
// a JSON document at its `client_id` URL is known by that document — nothing is registered, and no secret exists.
// Which client_ids are looked up, and what a document must say to be accepted, are decided here; fetching is not.
import { normaliseL1Server, type L1ServerUrl } from './l1-server.js';
import { err, ok, type Result } from './result.js';
import { canParseUrl } from './url-parse.js';

/** The most of a client document read; a longer one is refused. */
export const MAX_CLIENT_DOCUMENT_BYTES = 5_120;
/** The most of a `jwks_uri` answer read; a longer one is refused. */
export const MAX_JWKS_BYTES = 20_480;
/** A document fetch (and a `jwks_uri` fetch) gives up after this long. */
export const CLIENT_DOCUMENT_TIMEOUT_MS = 5_000;
/** A document is kept for its `Cache-Control: max-age`, never longer than this. */
export const MAX_CLIENT_DOCUMENT_CACHE_SECONDS = 24 * 60 * 60;
/** `client_name` longer than this is ignored (the consent page shows it). */
const MAX_CLIENT_NAME_LENGTH = 100;

/** A JSON Web Key of a client's document, public members only (checked). */
export type ClientJwk = Readonly<Record<string, unknown>>;

/** A document that passed every check: what L2 holds of a document client. */
export interface ClientDocument {
  /** The fetched URL, equal to the document's `client_id` character for character; also the `l1_server`. */
  readonly clientId: L1ServerUrl;
  /** The request's `redirect_uri` must equal one of these exactly. */
  readonly redirectUris: readonly string[];
  readonly authMethod: 'none' | 'private_key_jwt';
  /** The keys of `jwks`, when the document has them inline. */
  readonly jwks: readonly ClientJwk[] | null;
  /** Where the keys are published instead (fetched under the same rules). */
  readonly jwksUri: string | null;
  readonly backchannelLogoutUri: string | null;
  readonly postLogoutRedirectUris: readonly string[];
  /** What the consent page shows next to the client's host; null when absent or malformed. */
  readonly clientName: string | null;
  readonly logoUri: string | null;
  readonly clientUri: string | null;
}

const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

/** An `http` URL is acceptable only on loopback, and only while private destinations are allowed. */
const secureOrLoopback = (url: URL, allowPrivate: boolean): boolean =>
  url.protocol === 'https:' || (url.protocol === 'http:' && allowPrivate && isLoopbackHost(url.hostname));

/**
 * Whether a `client_id` is looked up as a document: an L1 server URL that normalisation leaves unchanged, with a
 * non-empty path, `https` — or `http` on a loopback host while `L1_ALLOW_PRIVATE=true`. Every other client_id is
 * an L1 server URL client (§2.3).
 */
export function isClientDocumentId(clientId: string, allowPrivate: boolean): boolean {
  const normalised = normaliseL1Server(clientId);
  if (!normalised.ok || normalised.value !== clientId) return false;
  const url = new URL(clientId);
  return url.pathname !== '/' && url.pathname !== '' && secureOrLoopback(url, allowPrivate);
}

const absoluteHttpUrl = (value: unknown): URL | null => {
  if (typeof value !== 'string' || !canParseUrl(value) || value.includes('#')) return null;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url;
};

/** Secret-based methods, and every method L2 does not implement: a document naming one is refused. */
const ACCEPTED_AUTH_METHODS = new Set(['none', 'private_key_jwt']);
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The keys of a JWK Set, when each is an EC P-256 or an RSA (≥ 2048 bits) public key; otherwise why not. */
export function checkJwks(value: unknown): Result<ClientJwk[], string> {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { keys?: unknown }).keys))
    return err('jwks must be a JWK Set: an object with a keys array');
  const keys = (value as { keys: unknown[] }).keys;
  if (keys.length === 0) return err('the JWK Set has no keys');
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) return err('a key is not an object');
    const jwk = key as Record<string, unknown>;
    if (PRIVATE_JWK_MEMBERS.some((member) => member in jwk)) return err('a key has private members');
    if (jwk.kty === 'EC') {
      if (jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
        return err('an EC key must be on P-256');
    } else if (jwk.kty === 'RSA') {
      if (typeof jwk.n !== 'string' || typeof jwk.e !== 'string') return err('an RSA key needs n and e');
      // base64url: 4 characters carry 3 bytes; a 2048-bit modulus is 256 bytes (342 characters).
      if (Math.floor((jwk.n.replace(/=+$/, '').length * 6) / 8) < 256)
        return err('an RSA key must have at least 2048 bits');
    } else return err('keys must be EC P-256 or RSA');
  }
  return ok(keys as ClientJwk[]);
}

const optionalString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The document fetched from `clientId` when every check of §2.5 passes, else the reason it is refused. Members the
 * checks do not name are ignored; a malformed `client_name`, `logo_uri` or `client_uri` is ignored, not refused.
 */
export function checkClientDocument(
  clientId: L1ServerUrl,
  document: unknown,
  allowPrivate: boolean,
): Result<ClientDocument, string> {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return err('the document is not a JSON object');
  const d = document as Record<string, unknown>;
  if (d.client_id !== clientId) return err('its client_id is not the URL it was fetched from');
  const origin = new URL(clientId).origin;
  const onOrigin = (value: unknown): URL | null => {
    const url = absoluteHttpUrl(value);
    return url && url.origin === origin ? url : null;
  };

  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0)
    return err('redirect_uris must be a non-empty array');
  if (!d.redirect_uris.every((uri) => onOrigin(uri) !== null))
    return err(
      'every redirect_uri must be an absolute http(s) URL on the client_id’s origin, without fragment',
    );

  if ('client_secret' in d || 'client_secret_expires_at' in d) return err('a client secret is refused');
  const method = d.token_endpoint_auth_method ?? 'none';
  if (typeof method !== 'string' || !ACCEPTED_AUTH_METHODS.has(method))
    return err(`token_endpoint_auth_method ${JSON.stringify(method)} is refused: none or private_key_jwt`);
  let jwks: ClientJwk[] | null = null;
  let jwksUri: string | null = null;
  if (method === 'private_key_jwt') {
    if ('jwks' in d === 'jwks_uri' in d) return err('private_key_jwt needs exactly one of jwks and jwks_uri');
    if ('jwks' in d) {
      const keys = checkJwks(d.jwks);
      if (!keys.ok) return keys;
      jwks = keys.value;
    } else {
      const uri = absoluteHttpUrl(d.jwks_uri);
      if (!uri || !secureOrLoopback(uri, allowPrivate)) return err('jwks_uri must be an https URL');
      jwksUri = uri.href;
    }
  }

  if (
    d.grant_types !== undefined &&
    !(Array.isArray(d.grant_types) && d.grant_types.includes('authorization_code'))
  )
    return err('grant_types must contain authorization_code');
  if (
    d.response_types !== undefined &&
    !(Array.isArray(d.response_types) && d.response_types.includes('code'))
  )
    return err('response_types must contain code');
  if (d.id_token_signed_response_alg !== undefined && d.id_token_signed_response_alg !== 'RS256')
    return err('id_token_signed_response_alg must be RS256');

  let backchannelLogoutUri: string | null = null;
  if (d.backchannel_logout_uri !== undefined) {
    if (!onOrigin(d.backchannel_logout_uri))
      return err('backchannel_logout_uri must be an absolute http(s) URL on the client_id’s origin');
    backchannelLogoutUri = d.backchannel_logout_uri as string;
  }
  let postLogoutRedirectUris: string[] = [];
  if (d.post_logout_redirect_uris !== undefined) {
    const uris = d.post_logout_redirect_uris;
    if (!Array.isArray(uris) || !uris.every((uri) => onOrigin(uri)?.search === ''))
      return err('post_logout_redirect_uris must be URLs on the client_id’s origin, without query');
    postLogoutRedirectUris = uris as string[];
  }

  const name = optionalString(d.client_name)?.trim() ?? '';
  const logo = absoluteHttpUrl(d.logo_uri);
  const home = absoluteHttpUrl(d.client_uri);
  return ok({
    clientId,
    redirectUris: d.redirect_uris as string[],
    authMethod: method as ClientDocument['authMethod'],
    jwks,
    jwksUri,
    backchannelLogoutUri,
    postLogoutRedirectUris,
    clientName: name.length > 0 && name.length <= MAX_CLIENT_NAME_LENGTH ? name : null,
    logoUri: logo && secureOrLoopback(logo, allowPrivate) ? logo.href : null,
    clientUri: home ? home.href : null,
  });
}

/** How long a fetched document may be kept: its `max-age`, at most a day; `no-store`/`no-cache`/none: not kept. */
export function documentLifetimeSeconds(cacheControl: string | null): number {
  if (cacheControl === null || /(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(cacheControl)) return 0;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl)?.[1];
  return maxAge === undefined ? 0 : Math.min(Number(maxAge), MAX_CLIENT_DOCUMENT_CACHE_SECONDS);
}
