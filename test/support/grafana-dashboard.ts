// The series docs/grafana/l2-dashboard.json queries: each must be one that GET /metrics serves (metrics.test.ts for
// every store, postgres-service.test.ts for the pooled store's own).
import { readFileSync } from 'node:fs';

export function dashboardSeries(): string[] {
  const dashboard = JSON.parse(
    readFileSync(new URL('../../docs/grafana/l2-dashboard.json', import.meta.url), 'utf8'),
  ) as { panels: { targets: { expr: string }[] }[] };
  const names = dashboard.panels.flatMap(({ targets }) =>
    targets.flatMap(({ expr }) => expr.match(/\bl2_[a-z_0-9]+/g) ?? []),
  );
  return [...new Set(names)];
}

/** The metric names `metrics` (a /metrics answer) serves. */
export const servedSeries = (metrics: string): Set<string> =>
  new Set(
    metrics
      .split('\n')
      .filter((line) => /^l2_/.test(line))
      .map((line) => /^[a-z_0-9]+/.exec(line)![0]),
  );
