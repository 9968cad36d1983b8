import type { DependencyContainer } from 'tsyringe';
import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { InstanceActorKeys } from '../application/services/instance-actor-keys.js';
import type { OutboundHttp } from '../adapters/outbound/outbound-request.js';
import { createHttpFrontEnd } from '../adapters/http/request-listener.js';
import type { QueueWorker } from '../adapters/scheduling/queue-worker.js';
import { IntervalTask } from '../adapters/scheduling/interval-task.js';
import type { Config } from './config.js';
import { isHttps, persistenceOf } from './container.js';
import { runMaintenance } from './maintenance.js';
import { loadStaticFiles } from '../adapters/views/static-files.js';
import { VERSION } from './version.js';
import { TOKENS } from './tokens.js';
import { useCasesOf } from './use-cases.js';

/** The running pieces of one L2 process: the HTTP app and its background work. */
export interface L2Application {
  readonly app: Koa;
  /** What the HTTP server runs per request: the hot paths, then `app`. */
  readonly listener: RequestListener;
  /** How many requests the hot paths answered themselves (the rest went to `app`). */
  hotPathAnswers(): number;
  readonly logger: Logger;
  /** Starts the notice worker and the hourly cleanup, and warms the dummy password hash. */
  startBackground(): Promise<void>;
  /** Stops background work (waiting for deliveries in flight) and closes the store. */
  close(): Promise<void>;
}

export function buildApplication(c: DependencyContainer): L2Application {
  const config = c.resolve<Config>(TOKENS.Config);
  const logger = c.resolve<Logger>(TOKENS.Logger);
  const worker = c.resolve<QueueWorker>(TOKENS.QueueWorker);
  const cleanup = new IntervalTask(
    'revocation cleanup',
    () => runMaintenance(c),
    config.revocationCleanupIntervalMs,
    logger,
  );
  const { host } = new URL(config.publicUrl);
  // Markdown and the README's HTML are loaded with the first home page, not at start.
  let readme: Promise<string> | undefined;

  const { app, listener, hotPathAnswers } = createHttpFrontEnd({
    settings: {
      publicUrl: config.publicUrl,
      // URL.host already leaves out a default port, as the acct: domain must.
      webfingerDomain: host,
      version: VERSION,
      cookies: { secure: isHttps(config) },
      trustProxy: config.trustProxy,
      metricsToken: config.metricsToken,
    },
    urls: c.resolve(TOKENS.Urls),
    logger,
    views: c.resolve(TOKENS.Views),
    readmeHtml: () => (readme ??= import('../adapters/views/readme-renderer.js').then((m) => m.loadReadme())),
    staticFiles: loadStaticFiles(),
    csrf: c.resolve(TOKENS.CsrfGuard),
    health: c.resolve(TOKENS.StoreHealth),
    instanceActorKeys: c.resolve(InstanceActorKeys),
    useCases: useCasesOf(c),
    metrics: c.resolve(TOKENS.ServiceMetrics),
  });

  let closed = false;
  return {
    app,
    listener,
    hotPathAnswers,
    logger,
    async startBackground() {
      await c.resolve<() => Promise<unknown>>(TOKENS.WarmUp)();
      worker.start();
      cleanup.start();
    },
    async close() {
      if (closed) return;
      closed = true;
      cleanup.stop();
      await worker.stop();
      c.resolve<OutboundHttp>(TOKENS.OutboundHttp).close();
      await persistenceOf(c).close();
    },
  };
}
