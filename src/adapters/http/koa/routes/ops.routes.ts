import { timingSafeEqual } from 'node:crypto';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { HttpDependencies } from '../dependencies.js';
import { json, problem } from '../openapi-docs.js';
import { HttpProblem } from '../problem.js';
import type { RouteTable } from '../route-table.js';
import * as schemas from '../schemas.js';

export function opsRoutes(
  routes: RouteTable,
  deps: HttpDependencies,
  extras: { openApiDocument: () => object; metrics: Registry },
): void {
  const { openApiDocument, metrics } = extras;
  routes.get(
    '/healthz',
    { summary: 'Liveness', responses: { 200: json(schemas.HealthResponse, 'The process runs') } },
    (ctx) => {
      ctx.body = { status: 'ok' };
    },
  );

  routes.get(
    '/readyz',
    {
      summary: 'Readiness: the store answers',
      responses: { 200: json(schemas.HealthResponse, 'Ready'), 503: problem('unavailable') },
    },
    async (ctx) => {
      try {
        await deps.health.ping();
      } catch {
        throw new HttpProblem(503, 'unavailable', 'The store does not answer.', {
          headers: { 'Retry-After': '5' },
        });
      }
      ctx.body = { status: 'ready' };
    },
  );

  routes.get(
    '/metrics',
    {
      summary:
        'Prometheus metrics (text format); with METRICS_TOKEN set, only for `Authorization: Bearer <it>`',
      responses: {
        200: { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } },
        401: problem('unauthenticated: METRICS_TOKEN is set and the request does not carry it'),
      },
    },
    async (ctx) => {
      if (
        deps.settings.metricsToken !== null &&
        !bearerMatches(ctx.get('Authorization'), deps.settings.metricsToken)
      ) {
        throw new HttpProblem(401, 'unauthenticated', 'These metrics need the metrics token.', {
          headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        });
      }
      ctx.body = await metrics.metrics();
      ctx.type = metrics.contentType;
    },
  );

  routes.get(
    '/openapi.json',
    {
      summary: 'This document: OpenAPI 3.1 for every JSON route',
      responses: { 200: json(z.object({}).passthrough(), 'OpenAPI 3.1') },
    },
    (ctx) => {
      ctx.body = openApiDocument();
    },
  );
}

/** Whether the header is `Bearer <expected>`, compared in constant time. */
function bearerMatches(header: string, expected: string): boolean {
  const sent = Buffer.from(/^Bearer +(\S+) *$/i.exec(header)?.[1] ?? '');
  const wanted = Buffer.from(expected);
  return sent.length === wanted.length && timingSafeEqual(sent, wanted);
}
