// What an OAuth library reads (API.md §2.1, §2.3): the RFC 8414 metadata, the keys that sign notices, and the token
// endpoint's answer (introspection's is token-presenters.ts). Each is typed by the schema of oauth-schemas.ts that
// /openapi.json publishes for it.
import type { ExchangedToken } from '../../../../application/use-cases/oauth/exchange-authorization-code.js';
import type * as oauth from '../oauth-schemas.js';
import type { Presented } from './presented.js';

/** One public key of the notice signing keys (never a private part: only these members are copied). */
export type NoticeJwk = Presented<typeof oauth.Jwks>['keys'][number];

/** The path of the JWK Set, which the metadata names. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** RFC 8414 §2: every endpoint L2 has, and only the methods it supports. */
export const authorizationServerMetadata = (
  base: string,
): Presented<typeof oauth.AuthorizationServerMetadata> => ({
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  introspection_endpoint: `${base}/oauth/introspect`,
  jwks_uri: `${base}${JWKS_PATH}`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code'],
  code_challenge_methods_supported: ['S256'],
  token_endpoint_auth_methods_supported: ['none'],
  introspection_endpoint_auth_methods_supported: ['none'],
  scopes_supported: ['l1'],
  backchannel_logout_supported: true,
  backchannel_logout_session_supported: true,
});

/** GET /.well-known/jwks.json: the public members of each key, and nothing else. */
export const noticeKeysJson = (jwks: {
  readonly keys: readonly NoticeJwk[];
}): Presented<typeof oauth.Jwks> => ({
  keys: jwks.keys.map(({ kty, crv, x, y, kid, use, alg }) => ({ kty, crv, x, y, kid, use, alg })),
});

/** POST /oauth/token: the token the code was exchanged for, scoped to the L1 server. */
export const exchangedTokenJson = (exchanged: ExchangedToken): Presented<typeof oauth.TokenResponse> => ({
  access_token: exchanged.token,
  token_type: 'Bearer',
  expires_in: exchanged.expiresIn,
  scope: 'l1',
});
