// What an OAuth library reads (API.md §2.1, §2.3, §2.5): the metadata, the keys that sign notices and ID tokens, the token
// endpoint's answer (introspection's is token-presenters.ts). Each is typed by the schema of oauth-schemas.ts that
// /openapi.json publishes for it.
import type { ExchangedToken } from '../../../../application/use-cases/oauth/exchange-authorization-code.js';
import type * as oauth from '../oauth-schemas.js';
import type { Presented } from './presented.js';

/** The path of the JWK Set, which the metadata names. */
export const JWKS_PATH = '/.well-known/jwks.json';

const CLIENT_AUTH_METHODS: ['none', 'private_key_jwt'] = ['none', 'private_key_jwt'];
const CLIENT_ASSERTION_ALGS: ['ES256', 'RS256'] = ['ES256', 'RS256'];

/**
 * RFC 8414 §2 and OpenID Connect Discovery §3, one document for both (API.md §2.1, §2.5): every endpoint L2 has, and
 * only the methods it supports.
 */
export const authorizationServerMetadata = (
  base: string,
): Presented<typeof oauth.AuthorizationServerMetadata> => ({
  issuer: base,
  authorization_endpoint: `${base}/oauth/authorize`,
  token_endpoint: `${base}/oauth/token`,
  introspection_endpoint: `${base}/oauth/introspect`,
  userinfo_endpoint: `${base}/oauth/userinfo`,
  revocation_endpoint: `${base}/oauth/revoke`,
  end_session_endpoint: `${base}/oauth/logout`,
  jwks_uri: `${base}${JWKS_PATH}`,
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: ['authorization_code'],
  code_challenge_methods_supported: ['S256'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  token_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
  introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  introspection_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
  revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  revocation_endpoint_auth_signing_alg_values_supported: CLIENT_ASSERTION_ALGS,
  scopes_supported: ['openid', 'profile', 'l1'],
  claims_supported: [
    'sub',
    'iss',
    'aud',
    'azp',
    'exp',
    'iat',
    'auth_time',
    'nonce',
    'amr',
    'sid',
    'preferred_username',
    'name',
    'picture',
    'profile',
  ],
  prompt_values_supported: ['none', 'login', 'consent'],
  authorization_response_iss_parameter_supported: true,
  claims_parameter_supported: false,
  request_parameter_supported: false,
  request_uri_parameter_supported: false,
  frontchannel_logout_supported: false,
  backchannel_logout_supported: true,
  backchannel_logout_session_supported: true,
  client_id_metadata_document_supported: true,
});

/** A public key of the JWK Set: a notice key (ES256) or an ID-token key (RS256). */
export type PublicJwk = Presented<typeof oauth.Jwks>['keys'][number];

/**
 * GET /.well-known/jwks.json: the notice keys, then the ID-token keys — the public members of each, and nothing else
 * (only these members are copied, so no private part can slip through).
 */
export const signingKeysJson = (jwks: {
  readonly keys: readonly PublicJwk[];
}): Presented<typeof oauth.Jwks> => ({
  keys: jwks.keys.map((key) =>
    key.kty === 'EC'
      ? { kty: key.kty, crv: key.crv, x: key.x, y: key.y, kid: key.kid, use: key.use, alg: key.alg }
      : { kty: key.kty, n: key.n, e: key.e, kid: key.kid, use: key.use, alg: key.alg },
  ),
});

/** POST /oauth/token: the token the code was exchanged for, scoped to the L1 server. */
export const exchangedTokenJson = (exchanged: ExchangedToken): Presented<typeof oauth.TokenResponse> => ({
  access_token: exchanged.token,
  token_type: 'Bearer',
  expires_in: exchanged.expiresIn,
  scope: exchanged.scope,
  ...(exchanged.idToken === null ? {} : { id_token: exchanged.idToken }),
});
