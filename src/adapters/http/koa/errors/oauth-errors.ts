// The OAuth endpoints' error unions as HTTP answers (API.md §2.2–§2.3): RFC 6749 JSON for what an OAuth client
// reads (the token endpoint), an error page for a browser sent with a bad request.
import type { IntrospectionError } from '../../../../application/use-cases/oauth/introspect-token.js';
import type { TokenRevocationError } from '../../../../application/use-cases/oauth/revoke-client-token.js';
import type { AuthorizationRequestError, TokenRequestError } from '../../../../domain/oauth.js';
import type { LogoutRequestError } from '../../../../domain/rp-logout.js';
import { ErrorTable, type Refusal } from './error-table.js';
import { rateLimited } from './shared-refusals.js';

const oauthRefusal = <E extends { readonly detail: string }>(
  status: number,
  doc: string | readonly string[],
): Refusal<E, unknown> => ({ status, doc, oauth: true, detail: (error) => error.detail });

/** `POST /oauth/token` (RFC 6749 §5.2): nothing is issued by any of them. */
export const TOKEN_REQUEST_ERRORS = new ErrorTable<TokenRequestError>({
  invalid_request: oauthRefusal(400, [
    'a parameter is missing or given twice',
    'no code_verifier, or one that is not 43–128 unreserved characters (PKCE S256 is required)',
  ]),
  invalid_client: oauthRefusal(401, [
    'client_id is not an L1 server URL, or its client metadata document is refused',
    'a client_secret or Basic password (refused for every client), or client names that disagree',
    'a client assertion missing, invalid, replayed, or sent by a client whose document does not declare private_key_jwt',
  ]),
  invalid_grant: oauthRefusal(400, [
    'the code is unknown, expired, or was issued to another client or redirect_uri',
    'the code_verifier does not match the code_challenge',
    'the code was used before (the token its first use got is revoked)',
    'the session that allowed the code has ended, or the L1 server was detached since',
  ]),
  unsupported_grant_type: oauthRefusal(400, 'grant_type is not authorization_code'),
});

/**
 * `GET` and `POST /oauth/authorize` with a request that cannot be answered by a redirect (API.md §2.3): an error
 * page — sending the browser to a redirect URI that is not the client's would make L2 an open redirector.
 */
export const AUTHORIZATION_REQUEST_ERRORS = new ErrorTable<
  AuthorizationRequestError | { readonly type: 'repeated_parameter'; readonly detail: string }
>({
  invalid_client: {
    status: 400,
    code: 'invalid_request',
    doc: 'client_id is not an L1 server URL, or one the destination rules refuse',
    detail: (error) => error.detail,
  },
  invalid_redirect_uri: {
    status: 400,
    code: 'invalid_request',
    doc: "redirect_uri is not on the L1 server's origin, under its path",
    detail: (error) => error.detail,
  },
  invalid_request: {
    status: 400,
    doc: 'response_type is not code, PKCE is missing or not S256, or state is too long',
    detail: (error) => error.detail,
  },
  repeated_parameter: {
    status: 400,
    code: 'invalid_request',
    doc: 'a parameter is given twice',
    detail: (error) => error.detail,
  },
});

/** `POST /oauth/introspect`: no token, or a token that does not verify from an address whose budget of them is spent. */
export const INTROSPECTION_ERRORS = new ErrorTable<
  IntrospectionError | { readonly type: 'invalid_request'; readonly detail: string }
>({
  // API.md §2.2: a problem (§0) like every other refusal; it also carries RFC 6749 §5.2's `error` and
  // `error_description`, which OAuth libraries read from any JSON body of a 4xx.
  invalid_request: {
    status: 400,
    doc: 'no token was sent',
    detail: (error) => error.detail,
    members: (error) => ({ error: 'invalid_request', error_description: error.detail }),
  },
  invalid_client: oauthRefusal(401, [
    'a client_secret or Basic password (refused for every client), or client names that disagree',
    'the client metadata document is refused, or the client assertion is missing, invalid or replayed',
  ]),
  rate_limited: rateLimited(
    'Too many introspections of tokens that do not verify from your address. Try again later.',
    'a token that does not verify, from an address that had its budget of them (Retry-After says when to try again)',
  ),
});

/** `GET`/`POST /oauth/userinfo` (RFC 6750 §2): a token both in the header and in the form. */
export const USERINFO_REQUEST_ERRORS = new ErrorTable<{
  readonly type: 'invalid_request';
  readonly detail: string;
}>({
  invalid_request: {
    status: 400,
    doc: 'the access token is sent both in the Authorization header and in the form',
    detail: (error) => error.detail,
    members: (error) => ({ error: 'invalid_request', error_description: error.detail }),
  },
});

/** `POST /oauth/revoke` (RFC 7009, API.md §2.5): nothing is revoked by any of them. */
export const REVOCATION_REQUEST_ERRORS = new ErrorTable<
  TokenRevocationError | { readonly type: 'invalid_request'; readonly detail: string }
>({
  invalid_request: oauthRefusal(400, 'no token was sent, or a parameter is given twice'),
  invalid_client: oauthRefusal(401, [
    'no client identified, or a client_secret or Basic password (refused for every client)',
    'the client metadata document is refused, or the client assertion is missing, invalid or replayed',
  ]),
  unauthorized_client: oauthRefusal(400, 'the token is a session token, or was issued to another client'),
});

/**
 * `GET` and `POST /oauth/logout` (API.md §2.5): an error page, never a redirect (the redirect target is what cannot be
 * trusted), and nothing revoked.
 */
export const LOGOUT_REQUEST_ERRORS = new ErrorTable<
  LogoutRequestError | { readonly type: 'repeated_parameter'; readonly detail: string }
>({
  invalid_logout_request: {
    status: 400,
    code: 'invalid_request',
    doc: [
      'id_token_hint does not verify (signature or iss), or client_id is not its audience',
      'the client is not a URL, or its client metadata document is refused',
      "post_logout_redirect_uri is not one the client declared (or on the L1 server's URL), or is given without a client",
      'decision is neither client nor all, or client is chosen for a request that names no client',
    ],
    detail: (error) => error.detail,
  },
  repeated_parameter: {
    status: 400,
    code: 'invalid_request',
    doc: 'a parameter is given twice',
    detail: (error) => error.detail,
  },
});
