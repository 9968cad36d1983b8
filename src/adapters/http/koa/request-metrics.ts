import type { Context, Next } from 'koa';
import type { HttpMetrics } from '../shared/metrics.js';

/**
 * Records every request Koa answers under its route pattern (the router's `_matchedRoute`, never the raw path);
 * put it outermost so errors are counted with their final status. The hot paths record theirs themselves.
 */
export function requestMetrics(metrics: HttpMetrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      metrics.record(ctx.method, String(route), ctx.status, (performance.now() - started) / 1000);
    }
  };
}
