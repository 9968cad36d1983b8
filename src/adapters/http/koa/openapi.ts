import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { RevocationNoticeBody } from '../shared/oauth-schemas.js';
import type { DocumentedRoute } from './route-table.js';

/**
 * OpenAPI 3.1 for every JSON route of the route table, with the zod schemas the routes validate with, and the one
 * request L2 makes of L1 servers (the revocation notice) as a webhook.
 */
export function buildOpenApiDocument(
  routes: readonly DocumentedRoute[],
  publicUrl: string,
  version: string,
): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  registry.registerComponent('securitySchemes', 'cookie', { type: 'apiKey', in: 'cookie', name: 'l2_token' });
  for (const { method, path, doc } of routes) registry.registerPath({ method, path, ...doc });
  registry.registerWebhook({
    method: 'post',
    path: 'revocationNotice',
    summary: 'What L2 posts to `<l1_server>/auth/revoke` for every revoked token scoped to that L1 server',
    description:
      'Delivered at least once, after the revocation is committed: retried on network errors, timeouts (10 s), 5xx, ' +
      '408 and 429 for 24 hours; any other 4xx, or a redirect, ends it. See docs/l1-integration.md.',
    request: { body: { content: { 'application/json': { schema: RevocationNoticeBody } } } },
    responses: {
      204: { description: 'Handled (any 2xx): the L1 server has dropped what it kept for the token' },
      400: { description: 'Refused for good (any 4xx but 408 and 429): not sent again' },
      503: { description: 'Not now (any 5xx, 408, 429, or no answer): sent again later' },
    },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'L2 identity, registry and ActivityPub service', version },
    servers: [{ url: publicUrl }],
  });
}
