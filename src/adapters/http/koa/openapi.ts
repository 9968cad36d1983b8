import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { DocumentedRoute } from './route-table.js';

/** OpenAPI 3.1 for every JSON route of the route table, with the zod schemas the routes validate with. */
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
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'L2 identity, registry and ActivityPub service', version },
    servers: [{ url: publicUrl }],
  });
}
