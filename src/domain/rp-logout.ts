// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0, API.md §2.5): a client sends the browser to L2 to end
// what it was given. Which client is meant (the ID-token hint's audience or `client_id`) and where the browser may be
// sent back are decided here: a request that cannot be answered safely is refused before anything is shown or revoked.
import type { ClientDocument } from './client-document.js';
import type { L1ServerUrl } from './l1-server.js';
import { redirectUriBelongsTo } from './oauth.js';
import { err, ok, type Result } from './result.js';

/** The parameters a logout request is read from, each at most once (`logout_hint`, `ui_locales` are ignored). */
export const LOGOUT_PARAMETERS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'] as const;

/** A `state` longer than this is refused, as the authorization request's is. */
export const MAX_LOGOUT_STATE_LENGTH = 1024;

/** What a verified ID-token hint says: who signed in, to which client, in which session. */
export interface IdTokenHint {
  readonly clientId: string;
  readonly username: string;
  readonly sid: string;
}

/** A logout request that may be shown and decided. */
export interface LogoutRequest {
  /** The client to log out of; null when the request names none (then only L2 itself can be logged out of). */
  readonly clientId: L1ServerUrl | null;
  /** The client's document, for a document client: the page names it as the consent page does. */
  readonly document: ClientDocument | null;
  /** The verified hint; its `sid` names the session whose tokens are ended (without one: the browser's). */
  readonly hint: IdTokenHint | null;
  readonly postLogoutRedirectUri: string | null;
  readonly state: string | null;
}

export interface LogoutRequestError {
  readonly type: 'invalid_logout_request';
  readonly detail: string;
}

export const refuseLogout = (detail: string) =>
  err<LogoutRequestError>({ type: 'invalid_logout_request', detail });

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The hint's claims, once its signature verified with the ID-token key: `iss` must be this issuer; `exp` is not
 * judged (an expired ID token is the usual hint: the client logs out long after signing in). `aud` is the client, as
 * a string or an array of exactly one (OpenID Connect Core §2 allows both; L2 issues a string).
 */
export function readIdTokenHint(
  claims: Readonly<Record<string, unknown>>,
  issuer: string,
): Result<IdTokenHint, LogoutRequestError> {
  if (claims.iss !== issuer) return refuseLogout('id_token_hint was not issued by this server.');
  const { sub, sid } = claims;
  const aud: unknown = Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud;
  if (!isNonEmptyString(aud) || !isNonEmptyString(sub) || !isNonEmptyString(sid))
    return refuseLogout('id_token_hint is not an ID token of this server.');
  return ok({ clientId: aud, username: sub, sid });
}

/**
 * Whether the browser may be sent to `uri` after logging out of `clientId`: exactly one of the document's
 * `post_logout_redirect_uris`, or for an L1 server URL client a URL on it, as its `redirect_uri` must be — anything
 * else would make L2 an open redirector.
 */
export function postLogoutRedirectAllowed(
  uri: string,
  clientId: L1ServerUrl,
  document: ClientDocument | null,
): boolean {
  return document ? document.postLogoutRedirectUris.includes(uri) : redirectUriBelongsTo(uri, clientId);
}
