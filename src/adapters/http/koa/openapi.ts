import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
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

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'L2 identity, registry and ActivityPub service', version },
    servers: [{ url: publicUrl }],
  });
}
