import Router from '@koa/router';
import Koa from 'koa';
import type { HttpDependencies } from './dependencies.js';
import { bodyMiddleware } from './body-middleware.js';
import { errorMiddleware } from './error-middleware.js';
import { buildOpenApiDocument } from './openapi.js';
import { HttpProblem } from './problem.js';
import { requestLogger } from './request-logger.js';
import { authRoutes } from './routes/auth.routes.js';
import { opsRoutes } from './routes/ops.routes.js';
import { pagesRoutes } from './routes/pages.routes.js';
import { renderersRoutes } from './routes/renderers.routes.js';
import { securityHeaders } from './security-headers.js';

/** The whole middleware stack, in order. */
export function createApp(deps: HttpDependencies): Koa {
  const app = new Koa({ proxy: deps.settings.trustProxy });
  app.silent = true;

  const router = new Router();
  let openApi: object | null = null;
  opsRoutes(
    router,
    deps,
    () => (openApi ??= buildOpenApiDocument(deps.settings.publicUrl, deps.settings.version)),
  );
  authRoutes(router, deps);
  renderersRoutes(router, deps);
  pagesRoutes(router, deps);

  app.use(requestLogger(deps.logger));
  app.use(errorMiddleware(deps.logger, deps.views, (ctx) => deps.csrf.tokenFor(ctx)));
  app.use(securityHeaders);
  app.use(bodyMiddleware());
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new HttpProblem(405, 'method_not_allowed', 'This method is not allowed here.'),
      notImplemented: () => new HttpProblem(405, 'method_not_allowed', 'This method is not allowed here.'),
    }),
  );
  return app;
}
