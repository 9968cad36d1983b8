import type Router from '@koa/router';
import type { Registry } from 'prom-client';
import type { HttpDependencies } from '../dependencies.js';
import { HttpProblem } from '../problem.js';

export function opsRoutes(
  router: Router,
  deps: HttpDependencies,
  extras: { openApiDocument: () => object; metrics: Registry },
): void {
  const { openApiDocument, metrics } = extras;
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    try {
      await deps.health.ping();
    } catch {
      throw new HttpProblem(503, 'unavailable', 'The store does not answer.', {
        headers: { 'Retry-After': '5' },
      });
    }
    ctx.body = { status: 'ready' };
  });

  router.get('/metrics', async (ctx) => {
    ctx.body = await metrics.metrics();
    ctx.type = metrics.contentType;
  });

  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });
}
