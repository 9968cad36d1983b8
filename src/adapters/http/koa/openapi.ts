import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import * as schemas from './schemas.js';

type Responses = RouteConfig['responses'];

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schemas.Problem } },
});
const body = (schema: z.ZodType) => ({
  body: {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  },
});
const common: Responses = {
  400: problem('invalid_request: a field breaks its rule (see `errors`), or the JSON is malformed'),
  413: problem('payload_too_large: the body is over 64 KiB'),
  415: problem('unsupported_media_type: the body is neither JSON nor a form'),
};
const bearer: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

/** OpenAPI 3.1 for every JSON route, generated from the zod schemas the routes validate with. */
export function buildOpenApiDocument(publicUrl: string, version: string): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  registry.registerComponent('securitySchemes', 'cookie', { type: 'apiKey', in: 'cookie', name: 'l2_token' });

  registry.registerPath({
    method: 'post',
    path: '/auth/register',
    summary: 'Create an account (and its RSA key pair) and sign in',
    request: body(schemas.RegisterRequest),
    responses: {
      201: json(schemas.RegisterResponse, 'Created and signed in'),
      303: { description: 'Form post: cookie set, redirected to /' },
      ...common,
      403: problem('csrf_failed (form posts only)'),
      409: problem('username_taken'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/login',
    summary: 'Exchange credentials for a 30-day token',
    request: body(schemas.LoginRequest),
    responses: {
      200: json(schemas.LoginResponse, 'Signed in'),
      303: { description: 'Form post: cookie set, redirected to `next` (a local path) or /' },
      ...common,
      401: problem('invalid_credentials (same answer for an unknown user and a wrong password)'),
      403: problem('csrf_failed (form posts only)'),
      429: problem('rate_limited, with Retry-After'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/auth/me',
    summary: 'The current user and token',
    security: bearer,
    responses: { 200: json(schemas.MeResponse, 'The caller'), 401: problem('unauthenticated or token_*') },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/verify',
    summary: 'Called by L1 servers: is this token valid for me?',
    request: body(schemas.VerifyRequest),
    responses: {
      200: json(schemas.VerifyResponse, 'Valid'),
      ...common,
      401: problem('valid: false with token_invalid, token_expired, token_revoked or token_scope_mismatch'),
      503: problem('unavailable: the revocation records cannot be read (fails closed)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/logout',
    summary: 'Revoke the presented token (its scoped tokens; with `everywhere`, every token of the user)',
    security: bearer,
    request: {
      body: { required: false, content: { 'application/json': { schema: schemas.LogoutRequest } } },
    },
    responses: {
      200: json(schemas.RevokedResponse, 'Revoked; notices to L1 servers are queued'),
      303: { description: 'Form post: cookie cleared, redirected to /' },
      ...common,
      401: problem('unauthenticated, token_invalid or token_expired'),
      403: problem('csrf_failed (cookie-authenticated requests)'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/renderers/attach',
    summary: 'Create a token scoped to one L1 server',
    security: bearer,
    request: body(schemas.RendererRequest),
    responses: {
      201: json(schemas.AttachResponse, 'Scoped token created'),
      303: { description: 'Form post: redirected to `<l1_server>/auth/callback?token=<jwt>`' },
      ...common,
      401: problem('unauthenticated or token_*'),
      403: problem('forbidden (a scoped token cannot attach) or csrf_failed'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/renderers',
    summary: "The caller's attached L1 servers",
    security: bearer,
    responses: {
      200: json(schemas.RenderersResponse, 'Attachments'),
      401: problem('unauthenticated or token_*'),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/renderers/detach',
    summary: 'Revoke every scoped token for one L1 server and remove the attachment',
    security: bearer,
    request: body(schemas.RendererRequest),
    responses: {
      200: json(schemas.RevokedResponse, 'Detached'),
      303: { description: 'Form post: redirected to /renderers' },
      ...common,
      401: problem('unauthenticated or token_*'),
      403: problem('csrf_failed'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness',
    responses: { 200: json(schemas.HealthResponse, 'The process runs') },
  });
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the store answers',
    responses: { 200: json(schemas.HealthResponse, 'Ready'), 503: problem('unavailable') },
  });

  registerRegistryPaths(registry);
  registerActivityPubPaths(registry);

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'L2 identity, registry and ActivityPub service', version },
    servers: [{ url: publicUrl }],
  });
}

const negotiated =
  'Content negotiation: text/html gives the page, application/json this JSON; see API.md §0.';
const apJson = (description: string) => ({
  description,
  content: {
    'application/activity+json': { schema: z.object({}).passthrough() },
    'application/json': { schema: z.object({}).passthrough() },
  },
});
const listParams = z.object({
  limit: z.string().optional().openapi({ description: '1–100, default 20', example: '20' }),
  before: z.string().optional().openapi({ description: 'Cursor from `next`: entries older than this' }),
  after: z.string().optional().openapi({ description: 'Cursor from `prev`: entries newer than this' }),
});
const listErrors: Responses = {
  400: problem('invalid_request: a bad limit or cursor'),
  406: problem('not_acceptable'),
};
const nameParam = z.object({ name: z.string().openapi({ example: 'sunset' }) });
const userParam = z.object({ username: z.string().openapi({ example: 'alice' }) });

/** API.md §3: the registry and the activity log. */
function registerRegistryPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/assets',
    summary: 'Register an asset (appends a signed Create)',
    security: bearer,
    request: body(schemas.RegisterAssetRequest),
    responses: {
      201: json(schemas.AssetWithActivity, 'Registered'),
      303: { description: 'Form post: redirected to the asset page' },
      ...common,
      401: problem('unauthenticated or token_*'),
      403: problem('csrf_failed'),
      409: problem('asset_exists (also for the name of a deleted asset)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/assets/{name}',
    summary: 'One asset',
    description: `${negotiated} application/activity+json gives the ActivityStreams object.`,
    request: { params: nameParam },
    responses: {
      200: json(schemas.Asset, 'The asset'),
      404: problem('not_found'),
      406: problem('not_acceptable'),
      410: problem('gone: deleted (a Tombstone in the ActivityStreams form)'),
    },
  });
  registry.registerPath({
    method: 'patch',
    path: '/assets/{name}',
    summary: "Change an asset's description, tags, url or media type (owner only; appends a signed Update)",
    security: bearer,
    request: { params: nameParam, ...body(schemas.UpdateAssetRequest) },
    responses: {
      200: json(schemas.AssetWithActivity, 'Changed'),
      ...common,
      401: problem('unauthenticated or token_*'),
      403: problem('forbidden (not the owner) or csrf_failed'),
      404: problem('not_found'),
      410: problem('gone'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/assets/{name}',
    summary: 'Delete an asset (owner only; appends a signed Delete; the name stays taken)',
    security: bearer,
    request: { params: nameParam },
    responses: {
      200: json(schemas.DeletedAsset, 'Deleted'),
      401: problem('unauthenticated or token_*'),
      403: problem('forbidden (not the owner) or csrf_failed'),
      404: problem('not_found'),
      410: problem('gone: deleted already'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/registry',
    summary: 'Live assets, newest first',
    description: negotiated,
    request: {
      query: listParams.extend({
        owner: z.string().optional().openapi({ description: "Only this user's assets" }),
        q: z.string().optional().openapi({ description: 'Name prefix (case-sensitive)' }),
      }),
    },
    responses: { 200: json(schemas.AssetList, 'A page of assets'), ...listErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/activities',
    summary: 'The activity log, newest first',
    description: negotiated,
    request: { query: listParams },
    responses: { 200: json(schemas.ActivityList, 'A page of activities'), ...listErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/activities/{idx}',
    summary: 'One activity',
    description: `${negotiated} application/activity+json gives the signed ActivityStreams document.`,
    request: { params: z.object({ idx: z.string().openapi({ example: '0' }) }) },
    responses: {
      200: json(schemas.Activity, 'The activity'),
      400: problem('invalid_request: idx is not a non-negative integer'),
      404: problem('not_found'),
      406: problem('not_acceptable'),
    },
  });
}

/** API.md §4 and §6–7: users, ActivityPub discovery, the home document and metrics. */
function registerActivityPubPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/users',
    summary: 'Registered users, newest first',
    description: negotiated,
    request: { query: listParams },
    responses: { 200: json(schemas.UserList, 'A page of users'), ...listErrors },
  });
  registry.registerPath({
    method: 'get',
    path: '/users/{username}',
    summary: 'One user; application/activity+json gives the ActivityPub actor',
    description: `${negotiated} Other spellings of the name answer 301 to the lower-case URL.`,
    request: { params: userParam },
    responses: {
      200: json(schemas.UserSummary, 'The user'),
      404: problem('not_found'),
      406: problem('not_acceptable'),
    },
  });
  for (const [suffix, summary] of [
    ['outbox', "The user's activities: an OrderedCollection; pages at ?page=true[&before=<idx>]"],
    [
      'followers',
      'The actors following the user: an OrderedCollection; pages of actor ids at ?page=true[&before=]',
    ],
    ['following', 'An empty OrderedCollection (L2 users follow no one)'],
  ] as const) {
    registry.registerPath({
      method: 'get',
      path: `/users/{username}/${suffix}`,
      summary,
      request: { params: userParam },
      responses: {
        200: apJson('ActivityStreams collection'),
        404: problem('not_found'),
        406: problem('not_acceptable'),
      },
    });
  }
  const inbox = {
    description:
      'An activity HTTP-signed by its actor (draft-cavage rsa-sha256 or hs2019 covering (request-target), host, date ' +
      'and digest, or RFC 9421 with content-digest; Date within 5 minutes). Follow, Undo of a Follow and Delete of ' +
      'the actor are acted on; anything else is accepted and ignored. See docs/activitypub.md.',
    content: {
      'application/activity+json': {
        schema: z.object({ type: z.string(), actor: z.string() }).passthrough(),
      },
      'application/ld+json': { schema: z.object({ type: z.string(), actor: z.string() }).passthrough() },
    },
  };
  const inboxResponses = {
    202: { description: 'Accepted (acted on or ignored)' },
    400: problem('invalid_request: not JSON, not an object, no type or actor; a follower without an inbox'),
    401: problem(
      'unauthenticated: unsigned, bad signature or digest, stale Date, unknown key, signer is not the actor',
    ),
    413: problem('payload_too_large: over 256 KiB'),
    415: problem('unsupported_media_type'),
  };
  registry.registerPath({
    method: 'post',
    path: '/users/{username}/inbox',
    summary: "A user's inbox (ActivityPub)",
    request: { params: userParam, body: inbox },
    responses: { ...inboxResponses, 404: problem('not_found: no such user') },
  });
  registry.registerPath({
    method: 'post',
    path: '/inbox',
    summary: 'The shared inbox (ActivityPub)',
    request: { body: inbox },
    responses: inboxResponses,
  });
  registry.registerPath({
    method: 'get',
    path: '/actor',
    summary: "The service's own actor (an Application), which signs the GETs the service makes",
    responses: { 200: apJson('ActivityStreams Application'), 406: problem('not_acceptable') },
  });
  registry.registerPath({
    method: 'get',
    path: '/.well-known/webfinger',
    summary: 'WebFinger (JRD) for acct:<user>@<domain> or an actor URL',
    request: { query: z.object({ resource: z.string().openapi({ example: 'acct:alice@l2.example' }) }) },
    responses: {
      200: {
        description: 'JRD',
        content: { 'application/jrd+json': { schema: z.object({}).passthrough() } },
      },
      400: problem('invalid_request: missing or malformed resource'),
      404: problem('not_found: another domain or an unknown user'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/nodeinfo/2.1',
    summary: 'NodeInfo 2.1 (linked from /.well-known/nodeinfo)',
    responses: { 200: json(z.object({}).passthrough(), 'NodeInfo') },
  });
  registry.registerPath({
    method: 'get',
    path: '/',
    summary: 'The service: name, version, l2_server and live statistics',
    description: negotiated,
    responses: {
      200: json(
        z.object({
          name: z.string(),
          version: z.string(),
          l2_server: z.string(),
          stats: z.object({
            users: z.number().int(),
            assets: z.number().int(),
            activities: z.number().int(),
          }),
        }),
        'The service',
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (text format)',
    responses: { 200: { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } } },
  });
}
