import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { GetQueueStatistics } from '../../../application/use-cases/operations/get-queue-statistics.js';
import type { GetStatistics } from '../../../application/use-cases/operations/get-statistics.js';
import { JOB_KINDS } from '../../../domain/jobs.js';

/** What the HTTP adapter counts beyond requests: verify and login outcomes (the codes of API.md, or `valid`/`ok`). */
export interface OutcomeMetrics {
  readonly registry: Registry;
  verified(outcome: string): void;
  loggedIn(outcome: string): void;
  /** An inbox request refused: a signature refusal's reason, `unavailable` or `rate_limited`. */
  inboxRefused(reason: string): void;
  /** An entry bundle read refused for want of a build slot: `rate_limited` (its address's) or `unavailable` (all). */
  bundleRefused(reason: 'rate_limited' | 'unavailable'): void;
}

/**
 * Prometheus metrics for `GET /metrics`: process metrics, requests by route pattern (never by raw path, so the
 * label set stays small) and status, and the service's own counts read from the store at scrape time.
 */
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;

  constructor(
    readonly registry: Registry,
    statistics: GetStatistics,
    queue: GetQueueStatistics,
  ) {
    this.requests = new Counter({
      name: 'l2_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'l2_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    countsGauge(
      this.registry,
      'l2_records',
      'Registered users, live assets and activities in the log.',
      'kind',
      () => statistics.execute(),
    );
    countsGauge(
      this.registry,
      'l2_notice_jobs',
      'Outbound jobs (revocation notices, deliveries) waiting (pending) or given up (abandoned).',
      'state',
      async () => {
        const { pending, abandoned } = await queue.execute();
        return { pending, abandoned };
      },
    );
    // Every kind, at 0 when it has no job: a dashboard shows 0, not a gap.
    const everyKind = () =>
      queue.execute().then(({ byKind }) => [
        ...byKind,
        ...JOB_KINDS.filter((kind) => !byKind.some((s) => s.kind === kind)).map((kind) => ({
          kind,
          pending: 0,
          abandoned: 0,
          oldestPendingQueuedAt: null,
        })),
      ]);
    new Gauge({
      name: 'l2_jobs',
      help: 'Outbound jobs by kind, waiting (pending) or given up (abandoned).',
      labelNames: ['kind', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { kind, pending, abandoned } of await everyKind()) {
          this.set({ kind, state: 'pending' }, pending);
          this.set({ kind, state: 'abandoned' }, abandoned);
        }
      },
    });
    new Gauge({
      name: 'l2_job_oldest_pending_age_seconds',
      help: 'How long the longest-waiting pending job of each kind has been queued (0 with none waiting).',
      labelNames: ['kind'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { kind, oldestPendingQueuedAt } of await everyKind())
          this.set(
            { kind },
            oldestPendingQueuedAt ? (Date.now() - oldestPendingQueuedAt.getTime()) / 1000 : 0,
          );
      },
    });
  }

  /** The counter and histogram of each method, route pattern and status seen, so a request hashes no label set. */
  private readonly series = new Map<string, { count: () => void; observe: (seconds: number) => void }>();

  /** Records one answered request (by either front end): its route pattern, status and time taken. */
  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      const counter = this.requests.labels({ method, route, status: String(status) });
      const histogram = this.duration.labels({ method, route });
      series = { count: () => counter.inc(), observe: (s) => histogram.observe(s) };
      this.series.set(key, series);
    }
    series.observe(seconds);
    series.count();
  }
}

/** A gauge of counts by one label, read when Prometheus scrapes. */
function countsGauge(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Promise<object>,
): void {
  new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    async collect() {
      for (const [key, value] of Object.entries(await read())) this.set({ [label]: key }, Number(value));
    },
  });
}
