// "Sign in with L2" (API.md §2.3): the authorization-code flow with PKCE that an L1 server starts, so that the user
// never types a URL and the scoped token never passes through one.
import type { ClientDocument } from './client-document.js';
import { normaliseL1Server, type L1ServerUrl } from './l1-server.js';
import type { OpenIdGrant } from './openid.js';
import { err, ok, type Result } from './result.js';
import type { IssuedToken } from './revocation.js';
import type { TokenClaims } from './token.js';
import type { Username } from './user.js';
import { canParseUrl } from './url-parse.js';

/** A code lives this long: the browser is redirected at once, and the L1 server exchanges it at once. */
export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;
/** RFC 7636 §4.2: S256 challenges are the base64url SHA-256 of a verifier, 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: a verifier is 43–128 unreserved characters. */
export const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** RFC 6749 leaves `state` opaque; a cap keeps it from carrying pages of data through a URL. */
const MAX_STATE_LENGTH = 1024;

/** What an L1 server asks for when it sends a user to `GET /oauth/authorize`. */
export interface AuthorizationRequest {
  /** The L1 server, which is the client: its normalised URL. */
  readonly clientId: L1ServerUrl;
  /** Where the browser goes back to: on the L1 server's origin, under its path. */
  readonly redirectUri: string;
  readonly state: string | null;
  /** The S256 challenge of the L1 server's PKCE verifier. */
  readonly codeChallenge: string;
  /** The client's metadata document when it is a document client (API.md §2.5); absent for an L1 server URL. */
  readonly document?: ClientDocument;
}

/**
 * Why a request cannot be answered by a redirect: an unknown client or a redirect URI outside it is answered with an
 * error page (redirecting there would send the browser to whoever wrote the link); anything else about the request
 * — an unsupported response type, PKCE missing or `plain` — too, since the L1 server is then no proper client.
 */
export type AuthorizationRequestError = {
  readonly [T in AuthorizationRefusal]: { readonly type: T; readonly detail: string };
}[AuthorizationRefusal];
type AuthorizationRefusal = 'invalid_client' | 'invalid_redirect_uri' | 'invalid_request';

const refuse = (type: AuthorizationRefusal, detail: string) =>
  err({ type, detail } as AuthorizationRequestError);

/**
 * Whether `redirectUri` belongs to the L1 server `clientId`: an absolute URL without fragment on the same origin,
 * whose path is the server's path or lies under it (`https://l1.example/studio` owns `/studio/cb`, not
 * `/studio2/cb`). A path with an encoded slash or backslash is refused: `/studio/..%2fevil` lies under `/studio`
 * here, but a server that decodes it before resolving dot segments serves `/evil`.
 */
export function redirectUriBelongsTo(redirectUri: string, clientId: L1ServerUrl): boolean {
  if (!canParseUrl(redirectUri) || redirectUri.includes('#')) return false;
  const redirect = new URL(redirectUri);
  if (/%2f|%5c/i.test(redirect.pathname)) return false;
  const client = new URL(clientId);
  if (redirect.origin !== client.origin || redirect.username !== '' || redirect.password !== '') return false;
  const prefix = client.pathname.replace(/\/+$/, '');
  return redirect.pathname === prefix || redirect.pathname.startsWith(`${prefix}/`);
}

/** Reads the query of `GET /oauth/authorize` (API.md §2.3); every parameter once, as a string. */
export function parseAuthorizationRequest(
  query: Readonly<Record<string, string | undefined>>,
  /** A document client's metadata (API.md §2.5): its redirect_uris, exactly, replace "under the L1 server URL". */
  document?: ClientDocument,
): Result<AuthorizationRequest, AuthorizationRequestError> {
  const clientId = normaliseL1Server(query.client_id ?? '');
  if (!clientId.ok) return refuse('invalid_client', 'client_id must be the L1 server’s URL.');
  const redirectUri = query.redirect_uri ?? '';
  if (document && !document.redirectUris.includes(redirectUri))
    return refuse('invalid_redirect_uri', 'redirect_uri must be one of the client document’s redirect_uris.');
  if (!document && !redirectUriBelongsTo(redirectUri, clientId.value))
    return refuse('invalid_redirect_uri', 'redirect_uri must be a URL on the L1 server, under its path.');
  if (query.response_type !== 'code') return refuse('invalid_request', 'response_type must be code.');
  if (query.code_challenge_method !== 'S256')
    return refuse('invalid_request', 'PKCE is required: code_challenge_method must be S256.');
  const challenge = query.code_challenge ?? '';
  if (!CHALLENGE.test(challenge))
    return refuse('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier.');
  const state = query.state ?? null;
  if (state !== null && state.length > MAX_STATE_LENGTH)
    return refuse('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);
  return ok({
    clientId: clientId.value,
    redirectUri,
    state,
    codeChallenge: challenge,
    ...(document ? { document } : {}),
  });
}

/** The redirect URI with the answer's parameters added to its query (RFC 6749 §4.1.2). */
export function redirectWith(redirectUri: string, params: Readonly<Record<string, string | null>>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

/**
 * A code as the store keeps it: by hash, with what it was granted for and, once exchanged, the token that exchange
 * issued — so that a second use can revoke it (RFC 6749 §4.1.2).
 */
export interface AuthorizationCode {
  /** SHA-256 hex of the code; the code itself is never stored. */
  readonly codeHash: string;
  readonly username: Username;
  /** The session that allowed it: the scoped token is issued from it, as an attach would, and never outlives it. */
  readonly session: TokenClaims;
  readonly sessionTokenHash: string;
  readonly clientId: L1ServerUrl;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly expiresAt: Date;
  /** When it was exchanged; null until then. */
  readonly usedAt: Date | null;
  /** The token its exchange issued; null until then. */
  readonly issued: IssuedToken | null;
  /**
   * What an OpenID Connect request was granted (scope, nonce; API.md §2.5), null for a §2.3 request. The ID token's
   * auth_time, amr and sid are those of `session`: the sign-in that allowed the code.
   */
  readonly openid: OpenIdGrant | null;
}

/** A code just granted by `session` for `request`: unused, living AUTHORIZATION_CODE_LIFETIME_SECONDS from `now`. */
export function grantedCode(input: {
  codeHash: string;
  session: TokenClaims;
  sessionTokenHash: string;
  request: AuthorizationRequest;
  now: Date;
  openid?: OpenIdGrant | null;
}): AuthorizationCode {
  const { request } = input;
  return {
    codeHash: input.codeHash,
    username: input.session.username,
    session: input.session,
    sessionTokenHash: input.sessionTokenHash,
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    expiresAt: new Date(input.now.getTime() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000),
    usedAt: null,
    issued: null,
    openid: input.openid ?? null,
  };
}

/**
 * Used codes are kept this long after they expire, so that a code presented again even minutes later is recognised
 * as a replay (and its token revoked) rather than as an unknown code; the hourly clean-up removes them after.
 */
export const AUTHORIZATION_CODE_RETENTION_SECONDS = 24 * 60 * 60;

/** The RFC 6749 §5.2 error codes `POST /oauth/token` answers with. */
export type TokenErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

export type TokenRequestError = {
  readonly [T in TokenErrorCode]: { readonly type: T; readonly detail: string };
}[TokenErrorCode];

/** `POST /oauth/token` for the authorization-code grant (API.md §2.3), every parameter read and checked. */
export interface TokenRequest {
  readonly code: string;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  readonly clientId: L1ServerUrl;
}

/** Codes are 43 characters; anything much longer is not one of ours and is refused before it is hashed. */
const MAX_CODE_LENGTH = 256;

const refuseToken = (type: TokenErrorCode, detail: string) => err({ type, detail } as TokenRequestError);

/**
 * Reads a token request's parameters. A parameter given twice arrives as an array and is refused (RFC 6749 §3.2);
 * parameters this grant does not use are ignored, as RFC 6749 §3.2 asks.
 */
export function parseTokenRequest(
  fields: Readonly<Record<string, unknown>>,
): Result<TokenRequest, TokenRequestError> {
  const text = (name: string): string | null | undefined => {
    const value = fields[name];
    if (value === undefined) return undefined;
    return typeof value === 'string' ? value : null;
  };
  const grantType = text('grant_type');
  if (grantType === undefined || grantType === null)
    return refuseToken('invalid_request', 'grant_type is required, once.');
  if (grantType !== 'authorization_code')
    return refuseToken('unsupported_grant_type', 'Only the authorization_code grant is supported.');
  const clientIdText = text('client_id');
  if (clientIdText === undefined || clientIdText === null)
    return refuseToken('invalid_request', 'client_id is required, once: the L1 server’s URL.');
  const clientId = normaliseL1Server(clientIdText);
  if (!clientId.ok) return refuseToken('invalid_client', 'client_id must be the L1 server’s URL.');
  const code = text('code');
  if (!code || code.length > MAX_CODE_LENGTH)
    return refuseToken('invalid_request', 'code is required, once.');
  const redirectUri = text('redirect_uri');
  if (!redirectUri) return refuseToken('invalid_request', 'redirect_uri is required, once.');
  const codeVerifier = text('code_verifier');
  if (!codeVerifier) return refuseToken('invalid_request', 'code_verifier is required (PKCE), once.');
  if (!VERIFIER.test(codeVerifier))
    return refuseToken('invalid_request', 'code_verifier must be 43–128 unreserved characters (RFC 7636).');
  return ok({ code, redirectUri, codeVerifier, clientId: clientId.value });
}

/**
 * Whether `code` may be exchanged by `request` at `now`, PKCE aside: it is bound to its client and redirect URI
 * (RFC 6749 §4.1.3) and lives AUTHORIZATION_CODE_LIFETIME_SECONDS. Every refusal is `invalid_grant`.
 */
export function checkCodeBinding(
  code: AuthorizationCode,
  request: TokenRequest,
  now: Date,
): Result<AuthorizationCode, TokenRequestError> {
  if (code.clientId !== request.clientId)
    return refuseToken('invalid_grant', 'The code was issued to another client.');
  if (code.redirectUri !== request.redirectUri)
    return refuseToken('invalid_grant', 'redirect_uri is not the one the code was issued for.');
  if (code.expiresAt.getTime() <= now.getTime()) return refuseToken('invalid_grant', 'The code has expired.');
  return ok(code);
}
