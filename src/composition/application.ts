import { warnOfClockSkew } from './clock-skew.js';
import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { ActorAnswers } from '../adapters/http/hot-paths/answers.js';
import { TlogAnswers } from '../adapters/http/hot-paths/tlog-answers.js';
import { ConfigError } from './config-error.js';
import { L1ServerUrls } from '../adapters/http/shared/l1-server-urls.js';
import { createHttpFrontEnd } from '../adapters/http/request-listener.js';
import { IntervalTask } from '../adapters/scheduling/interval-task.js';
import { isHttps, type L2Parts } from './compose.js';
import { runMaintenance } from './maintenance.js';
import { loadStaticFiles } from '../adapters/views/static-files.js';
import { VERSION } from './version.js';

/** The running pieces of one L2 process: the HTTP app and its background work. */
export interface L2Application {
  readonly app: Koa;
  /** What the HTTP server runs per request: the hot paths, then `app`. */
  readonly listener: RequestListener;
  /** How many requests the hot paths answered themselves (the rest went to `app`). */
  hotPathAnswers(): number;
  readonly logger: Logger;
  /**
   * Pins the transparency log's origin (a store made under another PUBLIC_URL refuses to start: ConfigError), starts
   * its check of the stored log in the background (writes wait for it; /readyz says when it is done), starts the
   * notice worker and the hourly cleanup, and warms the dummy password hash.
   */
  startBackground(): Promise<void>;
  /** Settles once the start-up check of the transparency log has (whatever it found: /readyz says that). */
  transparencyChecked(): Promise<void>;
  /** Stops background work (waiting for deliveries in flight) and closes the store. */
  close(): Promise<void>;
}

/** Builds the process's HTTP app and background work; call it once the store is ready (`store.ready()`). */
export function buildApplication(l2: L2Parts): L2Application {
  const { config, logger, queueWorker: worker } = l2;
  // The rate-limit counters now, not at the first login: a MongoDB store is connected by now, and the SQLite
  // limiter creates its table a turn of the event loop after it is made.
  void l2.rateLimits;
  const cleanup = new IntervalTask(
    'revocation cleanup',
    () => runMaintenance(l2),
    config.revocationCleanupIntervalMs,
    logger,
  );
  const { host } = config.publicAddress;
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
      strictAnswers: !config.production,
    },
    urls: l2.urls,
    logger,
    views: l2.views,
    readmeHtml: () => (readme ??= import('../adapters/views/readme-renderer.js').then((m) => m.loadReadme())),
    staticFiles: loadStaticFiles(),
    csrf: l2.csrf,
    signInMarks: l2.signInMarks,
    health: l2.store.health,
    logHealth: () => l2.services.transparencyLog.health(),
    tlogAnswers: new TlogAnswers(l2.useCases),
    instanceActorKeys: l2.services.instanceActorKeys,
    actorAnswers: new ActorAnswers(l2.urls, (user) => l2.useCases.getActorView.execute(user)),
    l1ServerUrls: new L1ServerUrls(),
    signingJwks: () => ({ keys: [...l2.noticeKeys.jwks().keys, ...l2.idTokenKeys.jwks()] }),
    authentication: l2.services.authenticateToken,
    useCases: l2.useCases,
    metrics: l2.metrics,
  });

  let closed = false;
  let checked: Promise<void> = Promise.resolve();
  return {
    app,
    listener,
    hotPathAnswers,
    logger,
    async startBackground() {
      await pinTransparencyOrigin(l2);
      checked = l2.services.transparencyLog.start().catch((error: unknown) => {
        // An inconsistency has been logged as such already; anything else (the store down) is checked again later.
        if (l2.services.transparencyLog.health().state !== 'inconsistent')
          logger.error({ err: error }, 'transparency log check failed; it runs again with the next write');
      });
      await l2.warmUp();
      void warnOfClockSkew(l2.openedStore.clockOffsetMs, logger);
      worker.start();
      cleanup.start();
    },
    transparencyChecked: () => checked,
    async close() {
      if (closed) return;
      closed = true;
      cleanup.stop();
      await worker.stop();
      l2.outboundHttp.close();
      await l2.store.close();
    },
  };
}

/** Records the log's origin at the first start; a store that holds another refuses to start (API.md §8). */
async function pinTransparencyOrigin(l2: L2Parts): Promise<void> {
  const log = l2.services.transparencyLog;
  const pinned = await log.pinOrigin();
  if (pinned !== log.origin)
    throw new ConfigError(
      `the store's transparency log is ${pinned}, and PUBLIC_URL ${l2.config.publicUrl} makes it ${log.origin}: ` +
        'a log keeps its origin (start with the PUBLIC_URL the store was made with)',
    );
}
