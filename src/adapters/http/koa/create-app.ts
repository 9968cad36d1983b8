import Router from '@koa/router';
import Koa from 'koa';
import type { HttpDependencies } from './dependencies.js';
import { bodyMiddleware } from './body-middleware.js';
import { drainUnreadBody } from './drain-unread-body.js';
import { errorMiddleware } from './error-middleware.js';
import type { HttpMetrics } from '../shared/metrics.js';
import { queryLimits } from './query-limits.js';
import { requestLogger } from './request-logger.js';
import { requestMetrics } from './request-metrics.js';
import { RouteTable, type UndeclaredRefusal } from './route-table.js';
import { serviceRoutes } from './routes/service-routes.js';
import { viewer } from './request-auth.js';
import { securityHeaders } from './security-headers.js';
import { staticFiles } from './static-middleware.js';

/**
 * What happens to a refusal a route answers with but does not declare: outside production it is a bug that must
 * show (an error, so a 500); in production the refusal goes out as it is, with a warning.
 */
const undeclaredRefusals =
  (deps: HttpDependencies) =>
  ({ route, problem }: UndeclaredRefusal): void => {
    const message = `${route} answered ${problem.status} ${problem.code}, a refusal it does not declare`;
    if (deps.settings.strictRefusals) throw new Error(message);
    deps.logger.warn({ route, status: problem.status, code: problem.code }, message);
  };

/** The whole middleware stack, in order. */
export function createApp(deps: HttpDependencies, metrics: HttpMetrics): Koa {
  // Behind a trusted proxy, only the hop that proxy appended is believed: the rest of X-Forwarded-For is whatever
  // the client sent (see client-address.ts).
  const app = new Koa({ proxy: deps.settings.trustProxy, maxIpsCount: 1 });
  app.silent = true;

  // Every route once, with its description: the router and /openapi.json are both built from this table.
  const routes = serviceRoutes(new RouteTable(undeclaredRefusals(deps)), deps, metrics.registry);
  const router = new Router();
  routes.registerOn(router);

  app.use(requestMetrics(metrics));
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
