// The composition root: the only module that knows which adapter fills which port, and the only tsyringe user.
import 'reflect-metadata';
import { createSecretKey, hkdfSync } from 'node:crypto';
import { pino, type Logger } from 'pino';
import {
  container as rootContainer,
  instancePerContainerCachingFactory as single,
  type DependencyContainer,
} from 'tsyringe';
import type { AssetRepository } from '../application/ports/asset-repository.js';
import type { Persistence } from '../application/ports/persistence.js';
import type { UserRepository } from '../application/ports/user-repository.js';
import { ListFollowers } from '../application/use-cases/list-followers.js';
import { PublishActivity } from '../application/use-cases/publish-activity.js';
import { ReceiveActivity } from '../application/use-cases/receive-activity.js';
import { Deliveries } from '../application/services/deliveries.js';
import { InstanceActorKeys } from '../application/services/instance-actor-keys.js';
import { JobRunner } from '../application/services/job-runner.js';
import { GetQueueStatistics } from '../application/use-cases/get-queue-statistics.js';
import { DeleteAsset } from '../application/use-cases/delete-asset.js';
import { GetActivity } from '../application/use-cases/get-activity.js';
import { GetAsset } from '../application/use-cases/get-asset.js';
import { ListActivities } from '../application/use-cases/list-activities.js';
import { ListRegistry } from '../application/use-cases/list-registry.js';
import { ListUsers } from '../application/use-cases/list-users.js';
import { RegisterAsset } from '../application/use-cases/register-asset.js';
import { UpdateAsset } from '../application/use-cases/update-asset.js';
import { JsonLdActivitySigner } from '../adapters/crypto/ld-signature/json-ld-activity-signer.js';
import { Urls } from '../domain/activity-streams.js';
import { TokenIssuer } from '../application/token-issuer.js';
import { AttachRenderer } from '../application/use-cases/attach-renderer.js';
import { AuthenticateToken } from '../application/use-cases/authenticate-token.js';
import { CleanupRevocations } from '../application/use-cases/cleanup-revocations.js';
import { DetachRenderer } from '../application/use-cases/detach-renderer.js';
import { GetUser } from '../application/use-cases/get-user.js';
import { GetStatistics } from '../application/use-cases/get-statistics.js';
import { IssueToken } from '../application/use-cases/issue-token.js';
import { ListRenderers } from '../application/use-cases/list-renderers.js';
import { RegisterUser } from '../application/use-cases/register-user.js';
import { RevocationWriter } from '../application/revocation-writer.js';
import { RevokeToken } from '../application/use-cases/revoke-token.js';
import { VerifyToken } from '../application/use-cases/verify-token.js';
import { BcryptPasswordHasher } from '../adapters/crypto/bcrypt-password-hasher.js';
import { CryptoIdGenerator } from '../adapters/crypto/crypto-id-generator.js';
import { JwtTokenCodec } from '../adapters/crypto/jwt-token-codec.js';
import { RsaKeyPairGenerator } from '../adapters/crypto/rsa-key-pair-generator.js';
import { SystemClock } from '../adapters/crypto/system-clock.js';
import { CsrfGuard } from '../adapters/http/koa/csrf.js';
import { HttpFederationClient } from '../adapters/outbound/http-federation-client.js';
import { HttpL1Notifier } from '../adapters/outbound/http-l1-notifier.js';
import { HttpSignatureVerifier } from '../adapters/outbound/http-signature-verifier.js';
import { IpDestinationPolicy } from '../adapters/outbound/ip-destination-policy.js';
import { OutboundHttp } from '../adapters/outbound/outbound-request.js';
import { QueueWorker } from '../adapters/scheduling/queue-worker.js';
import { RateLimiterLoginThrottle } from '../adapters/throttle/rate-limiter-login-throttle.js';
import { NunjucksViews } from '../adapters/views/nunjucks/nunjucks-views.js';
import { DEFAULT_RETRY_POLICY } from '../domain/delivery-policy.js';
import { DEFAULT_RUNNER_LIMITS } from '../application/services/job-runner.js';
import type { Config } from './config.js';
import { VERSION } from './version.js';
import { openStore } from './persistence.js';
import { TOKENS } from './tokens.js';

export { TOKENS };

/** Derives independent keys from the one configured secret, so the CSRF key is never the JWT key. */
const deriveKey = (secret: Buffer, purpose: string) =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `l2 ${purpose}`, 32)));

export function buildContainer(
  config: Config,
  override: (c: DependencyContainer) => void = () => {},
): DependencyContainer {
  const c = rootContainer.createChildContainer();
  const value = <T>(token: symbol, v: T) => c.register(token, { useValue: v });
  const factory = <T>(token: symbol | (new (...args: never[]) => T), make: (c: DependencyContainer) => T) =>
    c.register(token as symbol, { useFactory: single(make) });

  value(TOKENS.Config, config);
  factory(TOKENS.Logger, () =>
    pino({
      level: config.logLevel,
      base: undefined,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    }),
  );

  const store = openStore(config);
  value(TOKENS.Persistence, store.persistence);
  value(TOKENS.PurgeExpiredLimits, store.purgeExpiredLimits);
  value(TOKENS.UserRepository, store.persistence.users);
  value(TOKENS.IssuedTokenRegistry, store.persistence.issuedTokens);
  value(TOKENS.RevocationStore, store.persistence.revocations);
  value(TOKENS.RendererAttachments, store.persistence.attachments);
  value(TOKENS.JobQueue, store.persistence.jobs);
  value(TOKENS.StoreHealth, store.persistence.health);
  value(TOKENS.AssetRepository, store.persistence.assets);
  value(TOKENS.ActivityLog, store.persistence.activities);
  value(TOKENS.FollowerRepository, store.persistence.followers);
  value(TOKENS.RemoteKeyStore, store.persistence.remoteKeys);
  value(TOKENS.InstanceKeyStore, store.persistence.instanceKeys);
  value(TOKENS.Urls, new Urls(config.publicUrl));

  factory(TOKENS.Clock, () => new SystemClock());
  factory(TOKENS.IdGenerator, () => new CryptoIdGenerator());
  factory(TOKENS.PasswordHasher, () => new BcryptPasswordHasher(config.bcryptCost));
  factory(TOKENS.TokenCodec, () => new JwtTokenCodec(createSecretKey(config.jwtSecret)));
  factory(TOKENS.KeyPairGenerator, () => new RsaKeyPairGenerator());
  factory(TOKENS.DestinationPolicy, () => new IpDestinationPolicy(config.allowPrivateDestinations));
  factory(
    TOKENS.OutboundHttp,
    (c) => new OutboundHttp(c.resolve(TOKENS.DestinationPolicy), `L2/${VERSION} (+${config.publicUrl})`),
  );
  factory(TOKENS.L1Notifier, (c) => new HttpL1Notifier(c.resolve(TOKENS.OutboundHttp)));
  factory(
    InstanceActorKeys,
    (c) =>
      new InstanceActorKeys(
        c.resolve(TOKENS.InstanceKeyStore),
        c.resolve(TOKENS.KeyPairGenerator),
        c.resolve(TOKENS.Clock),
      ),
  );
  factory(TOKENS.FederationClient, (c) => {
    const keys = c.resolve(InstanceActorKeys);
    const urls = c.resolve<Urls>(TOKENS.Urls);
    return new HttpFederationClient(
      c.resolve(TOKENS.OutboundHttp),
      async () => ({ keyId: urls.instanceKeyId(), privateKeyPem: (await keys.keyPair()).privateKeyPem }),
      c.resolve(TOKENS.Clock),
    );
  });
  factory(
    TOKENS.SignatureVerifier,
    (c) =>
      new HttpSignatureVerifier(
        c.resolve(TOKENS.FederationClient),
        c.resolve(TOKENS.RemoteKeyStore),
        c.resolve(TOKENS.Clock),
        config.publicUrl,
      ),
  );
  factory(TOKENS.LoginThrottle, () => {
    const { maxFailuresPerUsername, maxFailuresPerAddress, windowSeconds } = config.login;
    return new RateLimiterLoginThrottle(
      store.limiter('login_user', maxFailuresPerUsername, windowSeconds),
      store.limiter('login_addr', maxFailuresPerAddress, windowSeconds),
    );
  });
  factory(TOKENS.Views, () => new NunjucksViews({ cache: config.production, version: VERSION }));
  factory(
    TOKENS.CsrfGuard,
    () => new CsrfGuard(deriveKey(config.jwtSecret, 'csrf'), { secure: isHttps(config) }),
  );

  factory(
    Deliveries,
    (c) =>
      new Deliveries(
        c.resolve(TOKENS.ActivityLog),
        c.resolve(TOKENS.UserRepository),
        c.resolve(TOKENS.FederationClient),
        c.resolve(TOKENS.Urls),
      ),
  );
  // The runner and the worker wake each other: a settled job leaves room to claim the next.
  factory(TOKENS.QueueWorker, (c) => {
    const notifier = c.resolve<HttpL1Notifier>(TOKENS.L1Notifier);
    const deliveries = c.resolve(Deliveries);
    const logger = c.resolve<Logger>(TOKENS.Logger);
    const runner: JobRunner = new JobRunner(
      c.resolve(TOKENS.JobQueue),
      {
        revocation_notice: (notice) => notifier.notify(notice),
        activity_delivery: (delivery) => deliveries.activity(delivery),
        accept_delivery: (delivery) => deliveries.document(delivery),
      },
      c.resolve(TOKENS.Clock),
      c.resolve(TOKENS.IdGenerator),
      { ...DEFAULT_RETRY_POLICY, firstDelayMs: config.noticeRetryFirstDelayMs },
      logger,
      {
        ...DEFAULT_RUNNER_LIMITS,
        concurrency: config.delivery.concurrency,
        perLane: config.delivery.perHost,
      },
      () => worker.jobsQueued(),
    );
    const worker = new QueueWorker(
      () => runner.start(),
      config.queuePollIntervalMs,
      logger,
      () => runner.settled(),
    );
    return worker;
  });
  factory(TOKENS.WorkSignal, (c) => c.resolve(TOKENS.QueueWorker));

  factory(
    TOKENS.TokenIssuer,
    (c) =>
      new TokenIssuer(
        c.resolve(TOKENS.TokenCodec),
        c.resolve(TOKENS.IssuedTokenRegistry),
        c.resolve(TOKENS.Clock),
        c.resolve(TOKENS.IdGenerator),
        config.publicUrl,
      ),
  );
  factory(
    AuthenticateToken,
    (c) =>
      new AuthenticateToken(
        c.resolve(TOKENS.TokenCodec),
        c.resolve(TOKENS.RevocationStore),
        c.resolve(TOKENS.Clock),
        config.publicUrl,
      ),
  );
  factory(
    RevocationWriter,
    (c) =>
      new RevocationWriter(
        c.resolve(TOKENS.RevocationStore),
        c.resolve(TOKENS.WorkSignal),
        c.resolve(TOKENS.Clock),
        config.publicUrl,
      ),
  );
  factory(
    RegisterUser,
    (c) =>
      new RegisterUser(
        c.resolve(TOKENS.UserRepository),
        c.resolve(TOKENS.PasswordHasher),
        c.resolve(TOKENS.KeyPairGenerator),
        c.resolve(TOKENS.TokenIssuer),
        c.resolve(TOKENS.Clock),
      ),
  );
  factory(
    IssueToken,
    (c) =>
      new IssueToken(
        c.resolve(TOKENS.UserRepository),
        c.resolve(TOKENS.PasswordHasher),
        c.resolve(TOKENS.LoginThrottle),
        c.resolve(TOKENS.TokenIssuer),
      ),
  );
  factory(VerifyToken, (c) => new VerifyToken(c.resolve(AuthenticateToken)));
  factory(
    RevokeToken,
    (c) =>
      new RevokeToken(
        c.resolve(AuthenticateToken),
        c.resolve(TOKENS.IssuedTokenRegistry),
        c.resolve(RevocationWriter),
        c.resolve(TOKENS.Clock),
      ),
  );
  factory(
    AttachRenderer,
    (c) =>
      new AttachRenderer(
        c.resolve(TOKENS.TokenIssuer),
        c.resolve(TOKENS.RendererAttachments),
        c.resolve(TOKENS.DestinationPolicy),
        c.resolve(AuthenticateToken),
        c.resolve(RevocationWriter),
        c.resolve(TOKENS.Clock),
      ),
  );
  factory(
    DetachRenderer,
    (c) =>
      new DetachRenderer(
        c.resolve(TOKENS.IssuedTokenRegistry),
        c.resolve(TOKENS.RendererAttachments),
        c.resolve(RevocationWriter),
        c.resolve(TOKENS.Clock),
      ),
  );
  factory(ListRenderers, (c) => new ListRenderers(c.resolve(TOKENS.RendererAttachments)));
  factory(GetUser, (c) => new GetUser(c.resolve(TOKENS.UserRepository)));
  factory(
    GetStatistics,
    (c) =>
      new GetStatistics(
        c.resolve(TOKENS.UserRepository),
        c.resolve(TOKENS.AssetRepository),
        c.resolve(TOKENS.ActivityLog),
      ),
  );

  // Registry and activity log
  factory(TOKENS.ActivitySigner, () => new JsonLdActivitySigner());
  factory(
    PublishActivity,
    (c) =>
      new PublishActivity(
        c.resolve(TOKENS.ActivityLog),
        c.resolve(TOKENS.ActivitySigner),
        c.resolve(TOKENS.Clock),
        c.resolve(TOKENS.Urls),
        c.resolve(TOKENS.WorkSignal),
      ),
  );
  const assetWriter =
    <T>(UseCase: new (a: AssetRepository, u: UserRepository, p: PublishActivity) => T) =>
    (c: DependencyContainer) =>
      new UseCase(
        c.resolve(TOKENS.AssetRepository),
        c.resolve(TOKENS.UserRepository),
        c.resolve(PublishActivity),
      );
  factory(RegisterAsset, assetWriter(RegisterAsset));
  factory(UpdateAsset, assetWriter(UpdateAsset));
  factory(DeleteAsset, assetWriter(DeleteAsset));
  factory(GetAsset, (c) => new GetAsset(c.resolve(TOKENS.AssetRepository)));
  factory(ListRegistry, (c) => new ListRegistry(c.resolve(TOKENS.AssetRepository)));
  factory(GetActivity, (c) => new GetActivity(c.resolve(TOKENS.ActivityLog)));
  factory(ListActivities, (c) => new ListActivities(c.resolve(TOKENS.ActivityLog)));
  factory(ListUsers, (c) => new ListUsers(c.resolve(TOKENS.UserRepository)));
  factory(ListFollowers, (c) => new ListFollowers(c.resolve(TOKENS.FollowerRepository)));
  factory(
    ReceiveActivity,
    (c) =>
      new ReceiveActivity(
        c.resolve(TOKENS.UserRepository),
        c.resolve(TOKENS.FollowerRepository),
        c.resolve(TOKENS.SignatureVerifier),
        c.resolve(TOKENS.FederationClient),
        c.resolve(TOKENS.WorkSignal),
        c.resolve(TOKENS.Clock),
        c.resolve(TOKENS.IdGenerator),
        c.resolve(TOKENS.Urls),
      ),
  );
  factory(GetQueueStatistics, (c) => new GetQueueStatistics(c.resolve(TOKENS.JobQueue)));
  factory(
    CleanupRevocations,
    (c) =>
      new CleanupRevocations(
        c.resolve(TOKENS.RevocationStore),
        c.resolve(TOKENS.IssuedTokenRegistry),
        c.resolve(TOKENS.Clock),
      ),
  );

  override(c);
  return c;
}

export const isHttps = (config: Config): boolean => config.publicUrl.startsWith('https:');

/** The store opened by this container; closing it is the caller's job (tsyringe's dispose does not). */
export const persistenceOf = (c: DependencyContainer): Persistence =>
  c.resolve<Persistence>(TOKENS.Persistence);
