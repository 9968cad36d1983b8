import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { logRequest } from '../access-log.js';
import { requestIdOf } from '../request-id.js';

/**
 * Gives each request its id (echoed in `X-Request-Id`, and in every log line about it), and logs one line per
 * request (see `logRequest` for its level): the id, method, route pattern, path (never the query, which may hold a
 * token), status, duration.
 */
export function requestLogger(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    const requestId = requestIdOf(ctx.req.headers['x-request-id']);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      logRequest(logger, ctx.status, performance.now() - started, () => ({
        reqId: requestId,
        method: ctx.method,
        route: (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? null,
        target: ctx.path,
      }));
    }
  };
}
