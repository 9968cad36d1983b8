import Router from '@koa/router';
import Koa from 'koa';
import type { HttpDependencies } from './dependencies.js';
import { bodyMiddleware } from './body-middleware.js';
import { drainUnreadBody } from './drain-unread-body.js';
import { errorMiddleware } from './error-middleware.js';
import type { HttpMetrics } from './metrics.js';
import { buildOpenApiDocument } from './openapi.js';
import { queryLimits } from './query-limits.js';
import { requestLogger } from './request-logger.js';
import { RouteTable } from './route-table.js';
import { accountRoutes } from './routes/account.routes.js';
import { activityPubRoutes } from './routes/activitypub.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { opsRoutes } from './routes/ops.routes.js';
import { pagesRoutes } from './routes/pages.routes.js';
import { registryRoutes } from './routes/registry.routes.js';
import { renderersRoutes } from './routes/renderers.routes.js';
import { viewer } from './request-auth.js';
import { securityHeaders } from './security-headers.js';
import { staticFiles } from './static-middleware.js';

/** The whole middleware stack, in order. */
export function createApp(deps: HttpDependencies, metrics: HttpMetrics): Koa {
  // Behind a trusted proxy, only the hop that proxy appended is believed: the rest of X-Forwarded-For is whatever
  // the client sent (see client-address.ts).
  const app = new Koa({ proxy: deps.settings.trustProxy, maxIpsCount: 1 });
  app.silent = true;

  // Every route once, with its description: the router and /openapi.json are both built from this table.
  const routes = new RouteTable();
  let openApi: object | null = null;
  opsRoutes(routes, deps, {
    openApiDocument: () =>
      (openApi ??= buildOpenApiDocument(routes.documented(), deps.settings.publicUrl, deps.settings.version)),
    metrics: metrics.registry,
  });
  authRoutes(routes, deps);
  accountRoutes(routes, deps);
  renderersRoutes(routes, deps);
  pagesRoutes(routes, deps);
  registryRoutes(routes, deps);
  activityPubRoutes(routes, deps);
  const router = new Router();
  routes.registerOn(router);

  app.use(metrics.middleware());
  app.use(drainUnreadBody);
  app.use(requestLogger(deps.logger));
  app.use(
    errorMiddleware(
      deps.logger,
      deps.views,
      (ctx, session) => deps.csrf.tokenFor(ctx, session),
      async (ctx) => {
        const signedIn = await viewer(ctx, deps);
        return signedIn ? { username: signedIn.claims.username, session: signedIn.claims.jti } : null;
      },
    ),
  );
  app.use(securityHeaders({ https: deps.settings.publicUrl.startsWith('https:') }));
  app.use(staticFiles(deps.staticFiles));
  app.use(queryLimits);
  app.use(bodyMiddleware());
  app.use(router.routes());
  // Without `throw`, the router sets the Allow header (RFC 9110 requires it on 405); the error middleware then
  // turns the empty 405/501 into a problem.
  app.use(router.allowedMethods());
  return app;
}
