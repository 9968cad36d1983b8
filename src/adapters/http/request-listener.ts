// What the HTTP server runs for each request: the hot paths first, then the Koa application.
import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import { HotPaths } from './hot-paths/hot-paths.js';
import { createApp, serviceRouteTable } from './koa/create-app.js';
import { mediaTypeOf } from './shared/request-body.js';
import type { HttpDependencies } from './koa/dependencies.js';
import { HttpMetrics } from './shared/metrics.js';

export interface HttpFrontEnd {
  /** The Koa application (every route). */
  readonly app: Koa;
  /** The request listener for the server: the hot paths, then `app`. */
  readonly listener: RequestListener;
  /** How many requests the hot paths answered themselves. */
  hotPathAnswers(): number;
}

export function createHttpFrontEnd(deps: HttpDependencies): HttpFrontEnd {
  // One set of metrics for both, so /metrics counts every request whichever path answered it.
  const metrics = new HttpMetrics(
    deps.metrics.registry,
    deps.useCases.getStatistics,
    deps.useCases.getQueueStatistics,
  );
  const routes = serviceRouteTable(deps, metrics);
  const app = createApp(deps, metrics, routes);
  const { publicUrl, webfingerDomain, strictAnswers } = deps.settings;
  const hot = new HotPaths(
    deps.useCases,
    deps.urls,
    deps.actorAnswers,
    {
      publicUrl,
      webfingerDomain,
      https: publicUrl.startsWith('https:'),
      trustProxy: deps.settings.trustProxy,
      // Outside production, a hot answer is sent only when its route's schema describes it (else Koa answers, and
      // fails it); production parses nothing on a hot path.
      describes: strictAnswers
        ? (method, answer) =>
            routes.describes(method, answer.route, 200, mediaTypeOf(answer.contentType), answer.body)
        : null,
    },
    metrics,
    deps.metrics,
    deps.logger,
    deps.l1ServerUrls,
    deps.tlogAnswers,
  );
  return { app, listener: hot.listener(app.callback()), hotPathAnswers: () => hot.answered };
}
