import type Router from '@koa/router';
import type { HttpDependencies } from '../dependencies.js';
import { HttpProblem } from '../problem.js';

export function opsRoutes(router: Router, deps: HttpDependencies, openApiDocument: () => object): void {
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

  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument();
  });
}
