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
import { RouteTable, type AnswerChecks, type UndescribedSuccess } from './route-table.js';
import { serviceRoutes } from './routes/service-routes.js';
import { viewer } from './request-auth.js';
import { securityHeaders } from './security-headers.js';
import { staticFiles } from './static-middleware.js';

/**
 * What happens to an answer that does not match its route's description — a refusal it does not declare, a success
 * body its schema does not describe: outside production it is a bug that must show (an error, so a 500); in
 * production an undeclared refusal goes out as it is, with a warning, and success bodies are not parsed.
 */
export function answerChecks(deps: HttpDependencies): AnswerChecks {
  const strict = deps.settings.strictAnswers;
  return {
    onUndeclared: ({ route, problem }) => {
      const message = `${route} answered ${problem.status} ${problem.code}, a refusal it does not declare`;
      if (strict) throw new Error(message);
      deps.logger.warn({ route, status: problem.status, code: problem.code }, message);
    },
    ...(strict
      ? {
          onUndescribed: ({ route, status, mediaType, issue }: UndescribedSuccess) => {
            throw new Error(
              `${route} answered ${status} ${mediaType} its schema does not describe: ${issue}`,
            );
          },
        }
      : {}),
  };
}

/** Every route once, with its description: the router and /openapi.json are both built from this table. */
export const serviceRouteTable = (deps: HttpDependencies, metrics: HttpMetrics): RouteTable =>
  serviceRoutes(new RouteTable(answerChecks(deps)), deps, metrics.registry);

/** The whole middleware stack, in order. */
export function createApp(deps: HttpDependencies, metrics: HttpMetrics, routes: RouteTable): Koa {
  // Behind a trusted proxy, only the hop that proxy appended is believed: the rest of X-Forwarded-For is whatever
  // the client sent (see client-address.ts).
  const app = new Koa({ proxy: deps.settings.trustProxy, maxIpsCount: 1 });
  app.silent = true;

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
