// The OAuth endpoints' requests and answers (API.md §2.1–§2.3): they validate bodies and generate /openapi.json.
import { z } from 'zod';
import { VERIFIER } from '../../../domain/oauth.js';
import { Amr } from './schemas.js';

/** An RFC 6749 §5.2 error: what the OAuth endpoints answer their refusals with (OAuthProblem). */
export const OAuthError = z
  .object({
    error: z.string().openapi({ example: 'invalid_grant' }),
    error_description: z.string(),
  })
  .openapi('OAuthError');

export const AuthorizationServerMetadata = z
  .object({
    issuer: z.string().url().openapi({ description: 'PUBLIC_URL' }),
    authorization_endpoint: z.string().url(),
    token_endpoint: z.string().url(),
    introspection_endpoint: z.string().url(),
    jwks_uri: z.string().url(),
    response_types_supported: z.array(z.literal('code')),
    grant_types_supported: z.array(z.literal('authorization_code')),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    token_endpoint_auth_methods_supported: z.array(z.literal('none')),
    introspection_endpoint_auth_methods_supported: z.array(z.literal('none')),
    scopes_supported: z.array(z.literal('l1')),
    backchannel_logout_supported: z.literal(true),
    backchannel_logout_session_supported: z.literal(true),
  })
  .openapi('AuthorizationServerMetadata');

export const Jwks = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal('EC'),
        crv: z.literal('P-256'),
        x: z.string(),
        y: z.string(),
        kid: z.string().openapi({ description: 'The RFC 7638 thumbprint of the key' }),
        use: z.literal('sig'),
        alg: z.literal('ES256'),
      }),
    ),
  })
  .openapi('NoticeSigningKeys');

/** RFC 7662 §2.1; unknown parameters (`token_type_hint`, …) are ignored, as RFC 6749 §3.2 asks. */
export const IntrospectionRequest = z
  .object({
    token: z.string().min(1, 'A token is required.').openapi({ description: 'The token to introspect.' }),
    resource: z
      .string()
      .optional()
      .openapi({ description: "RFC 8707: the calling L1 server's URL; needed for a token scoped to it." }),
    client_id: z
      .string()
      .optional()
      .openapi({
        description:
          'The calling client (API.md §2.5): the audience when `resource` is absent. Or Basic with an empty ' +
          'password, or a client assertion (private_key_jwt); a client_secret or Basic password is refused.',
      }),
    client_assertion_type: z.string().optional(),
    client_assertion: z.string().optional(),
  })
  .openapi('IntrospectionRequest');

/** RFC 7009 §2.1, with the client as API.md §2.5 identifies it; `token_type_hint` is ignored. */
export const RevocationRequest = z
  .object({
    token: z.string().min(1, 'A token is required.').openapi({ description: 'The token to revoke.' }),
    token_type_hint: z.string().optional().openapi({ description: 'Ignored.' }),
    client_id: z
      .string()
      .optional()
      .openapi({ description: 'The client (or Basic, or a client assertion).' }),
    client_assertion_type: z.string().optional(),
    client_assertion: z.string().optional(),
  })
  .openapi('RevocationRequest');

/** RFC 7009 §2.2: an empty object, whether or not anything was revoked. */
export const RevocationResponse = z.object({}).strict().openapi('RevocationResponse');

export const IntrospectionResponse = z
  .object({
    active: z.boolean(),
    sub: z.string().optional(),
    username: z.string().optional(),
    iss: z.string().url().optional(),
    aud: z.string().optional().openapi({ description: 'The L1 server, for a scoped token' }),
    exp: z.number().int().optional(),
    iat: z.number().int().optional(),
    jti: z.string().optional(),
    sid: z.string().optional().openapi({ description: 'The session that made a scoped token' }),
    amr: Amr.optional(),
    token_type: z.literal('Bearer').optional(),
    l2_server: z.string().url().optional(),
  })
  .openapi('IntrospectionResponse', {
    description:
      'Every field but `active` only when the token is active: `{"active": false}` says nothing more.',
  });

export const TokenRequest = z
  .object({
    grant_type: z.literal('authorization_code'),
    code: z.string(),
    redirect_uri: z.string().url().openapi({ description: 'The redirect_uri of the authorization request' }),
    code_verifier: z.string().regex(VERIFIER).openapi({ description: 'RFC 7636: the PKCE verifier (S256)' }),
    client_id: z.string().url().openapi({ description: "The L1 server's URL" }),
  })
  .openapi('TokenRequest');

export const TokenResponse = z
  .object({
    access_token: z
      .string()
      .openapi({ description: 'A token scoped to the L1 server, as renderer attach makes' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.literal('l1'),
  })
  .openapi('TokenResponse');

/** The query of `GET /oauth/authorize` (API.md §2.3), for /openapi.json; the domain reads it. */
export const AuthorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string().url().openapi({ description: "The L1 server's URL", example: 'https://l1.example' }),
  redirect_uri: z.string().url().openapi({
    description: "On the L1 server's origin, under its path",
    example: 'https://l1.example/auth/callback',
  }),
  state: z.string().max(1024).optional(),
  code_challenge: z.string().openapi({ description: 'RFC 7636: base64url SHA-256 of the verifier' }),
  code_challenge_method: z.literal('S256'),
});

/** The consent form's post: the request again, the button pressed, and the form's CSRF token. */
export const AuthorizeDecision = AuthorizeQuery.extend({
  decision: z.enum(['allow', 'deny']),
  _csrf: z.string(),
}).openapi('AuthorizeDecision');

/** What L2 posts to `<l1_server>/auth/revoke` (API.md §2, §2.4): the legacy fields, and the signed logout token. */
export const RevocationNoticeBody = z
  .object({
    token_hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({ description: 'SHA-256 hex of the revoked token' }),
    username: z.string(),
    l2_server: z.string().url(),
    expires_at: z.string().openapi({ description: 'When the revoked token would have expired (ISO 8601)' }),
    logout_token: z.string().openapi({
      description:
        'An OpenID Connect Back-Channel Logout 1.0 token: a JWS (alg ES256, kid, typ logout+jwt) signed with a key ' +
        'of /.well-known/jwks.json, claims iss (PUBLIC_URL), aud (the L1 server), iat, exp (iat + 120 s; signed ' +
        'afresh for every attempt), jti (the notice id, the same on every attempt), sub, sid (when the revoked token ' +
        'has one), events {"http://schemas.openid.net/event/backchannel-logout": {}}, token_hash, expires_at (a ' +
        'NumericDate); never a nonce.',
    }),
  })
  .openapi('RevocationNotice');
