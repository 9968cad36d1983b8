import { timingSafeEqual } from 'node:crypto';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { HttpDependencies } from '../dependencies.js';
import { OPS_ERRORS } from '../errors/edge-errors.js';
import { json } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';
import { healthJson } from '../../shared/presenters/service-presenters.js';
import * as schemas from '../../shared/schemas.js';

export function opsRoutes(
  routes: RouteTable,
  deps: HttpDependencies,
  extras: { openApiDocument: () => object; metrics: Registry },
): void {
  const { openApiDocument, metrics } = extras;
  routes.get(
    '/healthz',
    {
      summary: 'Liveness',
      responses: { 200: json(schemas.HealthResponse, 'The process runs') },
      refusals: [],
    },
    (ctx) => {
      ctx.body = healthJson('ok');
    },
  );

  routes.get(
    '/readyz',
    {
      summary: 'Readiness: the store answers, and the transparency log matches it',
      responses: { 200: json(schemas.HealthResponse, 'Ready') },
      refusals: [OPS_ERRORS.only('store_unreachable', 'tlog_checking', 'tlog_inconsistent')],
    },
    async (ctx) => {
      try {
        await deps.health.ping();
      } catch {
        throw OPS_ERRORS.problem({ type: 'store_unreachable' });
      }
      const log = deps.logHealth();
      if (log.state === 'checking') throw OPS_ERRORS.problem({ type: 'tlog_checking' });
      if (log.state === 'inconsistent') throw OPS_ERRORS.problem({ type: 'tlog_inconsistent' });
      ctx.body = healthJson('ready');
    },
  );

  routes.get(
    '/metrics',
    {
      summary:
        'Prometheus metrics (text format); with METRICS_TOKEN set, only for `Authorization: Bearer <it>`',
      responses: {
        200: { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } },
      },
      refusals: [OPS_ERRORS.only('metrics_token_missing')],
    },
    async (ctx) => {
      if (
        deps.settings.metricsToken !== null &&
        !bearerMatches(ctx.get('Authorization'), deps.settings.metricsToken)
      ) {
        throw OPS_ERRORS.problem({ type: 'metrics_token_missing' });
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
      refusals: [],
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
