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

const AuthMethods = z.array(z.enum(['none', 'private_key_jwt']));
const AssertionAlgs = z.array(z.enum(['ES256', 'RS256']));

/** RFC 8414 and OpenID Connect Discovery 1.0 §3: one document at both well-known paths (API.md §2.1, §2.5). */
export const AuthorizationServerMetadata = z
  .object({
    issuer: z.string().url().openapi({ description: 'PUBLIC_URL' }),
    authorization_endpoint: z.string().url(),
    token_endpoint: z.string().url(),
    introspection_endpoint: z.string().url(),
    userinfo_endpoint: z.string().url(),
    revocation_endpoint: z.string().url(),
    end_session_endpoint: z.string().url(),
    jwks_uri: z.string().url(),
    response_types_supported: z.array(z.literal('code')),
    response_modes_supported: z.array(z.literal('query')),
    grant_types_supported: z.array(z.literal('authorization_code')),
    code_challenge_methods_supported: z.array(z.literal('S256')),
    subject_types_supported: z.array(z.literal('public')),
    id_token_signing_alg_values_supported: z.array(z.literal('RS256')),
    token_endpoint_auth_methods_supported: AuthMethods,
    token_endpoint_auth_signing_alg_values_supported: AssertionAlgs,
    introspection_endpoint_auth_methods_supported: AuthMethods,
    introspection_endpoint_auth_signing_alg_values_supported: AssertionAlgs,
    revocation_endpoint_auth_methods_supported: AuthMethods,
    revocation_endpoint_auth_signing_alg_values_supported: AssertionAlgs,
    scopes_supported: z.array(z.enum(['openid', 'profile', 'l1'])),
    claims_supported: z.array(z.string()),
    prompt_values_supported: z.array(z.enum(['none', 'login', 'consent'])),
    authorization_response_iss_parameter_supported: z.literal(true),
    claims_parameter_supported: z.literal(false),
    request_parameter_supported: z.literal(false),
    request_uri_parameter_supported: z.literal(false),
    frontchannel_logout_supported: z.literal(false),
    backchannel_logout_supported: z.literal(true),
    backchannel_logout_session_supported: z.literal(true),
    client_id_metadata_document_supported: z.literal(true),
  })
  .openapi('AuthorizationServerMetadata');

const NoticeJwk = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string(),
  y: z.string(),
  kid: z.string().openapi({ description: 'The RFC 7638 thumbprint of the key' }),
  use: z.literal('sig'),
  alg: z.literal('ES256'),
});

const IdTokenJwk = z.object({
  kty: z.literal('RSA'),
  n: z.string(),
  e: z.string(),
  kid: z.string().openapi({ description: 'The RFC 7638 thumbprint of the key' }),
  use: z.literal('sig'),
  alg: z.literal('RS256'),
});

/** The notice keys (ES256, API.md §2.1), then the ID-token keys (RS256, API.md §2.5): public members only. */
export const Jwks = z.object({ keys: z.array(z.union([NoticeJwk, IdTokenJwk])) }).openapi('SigningKeys');

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
    scope: z.string().openapi({
      description:
        'What was granted: `l1`, or `openid l1` / `openid profile l1` for an OpenID Connect request',
    }),
    id_token: z.string().optional().openapi({
      description: 'When openid was granted: the ID token (RS256, a key of /.well-known/jwks.json)',
    }),
  })
  .openapi('TokenResponse');

/** OpenID Connect Core §5.3.2 (API.md §2.5): the person, and the profile claims when `profile` was granted. */
export const UserInfoResponse = z
  .object({
    sub: z.string().openapi({ description: 'The username' }),
    preferred_username: z.string().optional(),
    name: z.string().optional().openapi({ description: 'The display name, or the username without one' }),
    picture: z.string().url().optional().openapi({ description: "The avatar picture's URL" }),
    profile: z.string().url().optional().openapi({ description: 'The actor URL' }),
  })
  .openapi('UserInfo');

/** POST /oauth/userinfo's form (RFC 6750 §2.2): the token, unless it is in the Authorization header. */
export const UserInfoForm = z.object({ access_token: z.string().optional() });

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
  scope: z
    .string()
    .optional()
    .openapi({ description: '`openid` makes an OpenID Connect request; `profile` adds the profile claims' }),
  nonce: z.string().max(512).optional().openapi({ description: 'Copied into the ID token' }),
  prompt: z.string().optional().openapi({ description: '`none`, `login` or `consent`' }),
  max_age: z.string().regex(/^\d+$/).optional().openapi({ description: 'Seconds; 0 means prompt=login' }),
  response_mode: z.literal('query').optional(),
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

/** RP-initiated logout (API.md §2.5, OpenID Connect RP-Initiated Logout 1.0): who asks, and where to go back to. */
export const LogoutQuery = z.object({
  id_token_hint: z.string().optional().openapi({
    description: 'An ID token L2 issued (an expired one is accepted): names the client and the session',
  }),
  client_id: z
    .string()
    .url()
    .optional()
    .openapi({ description: 'The client, when there is no hint (or the same)' }),
  post_logout_redirect_uri: z.string().url().optional().openapi({
    description:
      "One of the document's post_logout_redirect_uris exactly; for an L1 server URL client, on its URL",
  }),
  state: z.string().max(1024).optional(),
});

/** The logout page's form: the request again, what to end, and the form's CSRF token. */
export const LogoutDecision = LogoutQuery.extend({
  decision: z.enum(['client', 'all']).optional(),
  _csrf: z.string().optional(),
}).openapi('LogoutDecision');
