import type { DependencyContainer } from 'tsyringe';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { AttachRenderer } from '../application/use-cases/attach-renderer.js';
import { AuthenticateToken } from '../application/use-cases/authenticate-token.js';
import { DetachRenderer } from '../application/use-cases/detach-renderer.js';
import { GetUser } from '../application/use-cases/get-user.js';
import { GetStatistics } from '../application/use-cases/get-statistics.js';
import { ListFollowers } from '../application/use-cases/list-followers.js';
import { ReceiveActivity } from '../application/use-cases/receive-activity.js';
import { InstanceActorKeys } from '../application/services/instance-actor-keys.js';
import type { OutboundHttp } from '../adapters/outbound/outbound-request.js';
import { GetQueueStatistics } from '../application/use-cases/get-queue-statistics.js';
import { DeleteAsset } from '../application/use-cases/delete-asset.js';
import { GetActivity } from '../application/use-cases/get-activity.js';
import { GetAsset } from '../application/use-cases/get-asset.js';
import { ListActivities } from '../application/use-cases/list-activities.js';
import { ListRegistry } from '../application/use-cases/list-registry.js';
import { ListUsers } from '../application/use-cases/list-users.js';
import { RegisterAsset } from '../application/use-cases/register-asset.js';
import { UpdateAsset } from '../application/use-cases/update-asset.js';
import { IssueToken } from '../application/use-cases/issue-token.js';
import { ListRenderers } from '../application/use-cases/list-renderers.js';
import { RegisterUser } from '../application/use-cases/register-user.js';
import { RevokeToken } from '../application/use-cases/revoke-token.js';
import { VerifyToken } from '../application/use-cases/verify-token.js';
import type { BcryptPasswordHasher } from '../adapters/crypto/bcrypt-password-hasher.js';
import { createApp } from '../adapters/http/koa/create-app.js';
import type { QueueWorker } from '../adapters/scheduling/queue-worker.js';
import { IntervalTask } from '../adapters/scheduling/interval-task.js';
import type { Config } from './config.js';
import { isHttps, persistenceOf } from './container.js';
import { runMaintenance } from './maintenance.js';
import { loadReadme } from '../adapters/views/readme-renderer.js';
import { loadStaticFiles } from '../adapters/views/static-files.js';
import { VERSION } from './version.js';
import { TOKENS } from './tokens.js';

/** The running pieces of one L2 process: the HTTP app and its background work. */
export interface L2Application {
  readonly app: Koa;
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

  const app = createApp({
    settings: {
      publicUrl: config.publicUrl,
      // URL.host already leaves out a default port, as the acct: domain must.
      webfingerDomain: host,
      version: VERSION,
      cookies: { secure: isHttps(config) },
      trustProxy: config.trustProxy,
    },
    urls: c.resolve(TOKENS.Urls),
    logger,
    views: c.resolve(TOKENS.Views),
    readmeHtml: loadReadme(),
    staticFiles: loadStaticFiles(),
    csrf: c.resolve(TOKENS.CsrfGuard),
    health: c.resolve(TOKENS.StoreHealth),
    instanceActorKeys: c.resolve(InstanceActorKeys),
    useCases: {
      registerUser: c.resolve(RegisterUser),
      issueToken: c.resolve(IssueToken),
      authenticateToken: c.resolve(AuthenticateToken),
      verifyToken: c.resolve(VerifyToken),
      revokeToken: c.resolve(RevokeToken),
      attachRenderer: c.resolve(AttachRenderer),
      detachRenderer: c.resolve(DetachRenderer),
      listRenderers: c.resolve(ListRenderers),
      getUser: c.resolve(GetUser),
      getStatistics: c.resolve(GetStatistics),
      registerAsset: c.resolve(RegisterAsset),
      updateAsset: c.resolve(UpdateAsset),
      deleteAsset: c.resolve(DeleteAsset),
      getAsset: c.resolve(GetAsset),
      listRegistry: c.resolve(ListRegistry),
      getActivity: c.resolve(GetActivity),
      listActivities: c.resolve(ListActivities),
      listUsers: c.resolve(ListUsers),
      listFollowers: c.resolve(ListFollowers),
      receiveActivity: c.resolve(ReceiveActivity),
      getQueueStatistics: c.resolve(GetQueueStatistics),
    },
  });

  let closed = false;
  return {
    app,
    logger,
    async startBackground() {
      const hasher = c.resolve<{ dummy?: BcryptPasswordHasher['dummy'] }>(TOKENS.PasswordHasher);
      await hasher.dummy?.call(hasher);
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
