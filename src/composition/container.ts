// The composition root: the only module (with use-cases.ts) that knows which adapter fills which port, and the only
// tsyringe user. Ports, adapters and services are wired here; use-cases in use-cases.ts.
import 'reflect-metadata';
import { createSecretKey, hkdfSync } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { pino, type Logger } from 'pino';
import {
  container as rootContainer,
  instancePerContainerCachingFactory as single,
  type DependencyContainer,
} from 'tsyringe';
import type { Persistence } from '../application/ports/persistence.js';
import { AuthenticateToken } from '../application/services/authenticate-token.js';
import { Deliveries } from '../application/services/deliveries.js';
import { InstanceActorKeys } from '../application/services/instance-actor-keys.js';
import { DEFAULT_RUNNER_LIMITS, JobRunner } from '../application/services/job-runner.js';
import { PasswordCheck } from '../application/services/password-check.js';
import { RevocationWriter } from '../application/services/revocation-writer.js';
import { TokenIssuer } from '../application/services/token-issuer.js';
import type { FollowLimits } from '../application/use-cases/federation/receive-activity.js';
import { PublishActivity } from '../application/use-cases/registry/publish-activity.js';
import { CryptoIdGenerator } from '../adapters/crypto/crypto-id-generator.js';
import { ServiceMetrics } from '../adapters/metrics/service-metrics.js';
import { JwtTokenCodec } from '../adapters/crypto/jwt-token-codec.js';
import { JsonLdActivitySigner } from '../adapters/crypto/ld-signature/json-ld-activity-signer.js';
import { keyGenerationsAtOnce, RsaKeyPairGenerator } from '../adapters/crypto/rsa-key-pair-generator.js';
import { SystemClock } from '../adapters/crypto/system-clock.js';
import { CsrfGuard } from '../adapters/http/koa/csrf.js';
import { HttpFederationClient } from '../adapters/outbound/http-federation-client.js';
import { HttpL1Notifier } from '../adapters/outbound/http-l1-notifier.js';
import { HttpSignatureVerifier } from '../adapters/outbound/http-signature-verifier.js';
import { IpDestinationPolicy } from '../adapters/outbound/ip-destination-policy.js';
import { OutboundHttp } from '../adapters/outbound/outbound-request.js';
import { QueueWorker } from '../adapters/scheduling/queue-worker.js';
import { rateLimits, type RateLimits } from '../adapters/throttle/rate-limits.js';
import { NunjucksViews } from '../adapters/views/nunjucks/nunjucks-views.js';
import { Urls } from '../domain/activity-streams.js';
import { DEFAULT_RETRY_POLICY } from '../domain/delivery-policy.js';
import type { Config } from './config.js';
import { passwordHasher } from './password-hashing.js';
import { openStore } from './persistence.js';
import { TOKENS } from './tokens.js';
import { registerUseCases } from './use-cases.js';
import { VERSION } from './version.js';

export { TOKENS };

/** Derives independent keys from the one configured secret, so the CSRF key is never the JWT key. */
const deriveKey = (secret: Buffer, purpose: string) =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `l2 ${purpose}`, 32)));

export async function buildContainer(
  config: Config,
  override: (c: DependencyContainer) => void = () => {},
): Promise<DependencyContainer> {
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

  // The store: every persistence port, and the failed-login counters next to the data.
  const store = await openStore(config);
  const { persistence } = store;
  value(TOKENS.Persistence, persistence);
  value(TOKENS.UserRepository, persistence.users);
  value(TOKENS.IssuedTokenRegistry, persistence.issuedTokens);
  value(TOKENS.RevocationStore, persistence.revocations);
  value(TOKENS.RendererAttachments, persistence.attachments);
  value(TOKENS.JobQueue, persistence.jobs);
  value(TOKENS.StoreHealth, persistence.health);
  value(TOKENS.AssetRepository, persistence.assets);
  value(TOKENS.ActivityLog, persistence.activities);
  value(TOKENS.FollowerRepository, persistence.followers);
  value(TOKENS.RemoteKeyStore, persistence.remoteKeys);
  value(TOKENS.InstanceKeyStore, persistence.instanceKeys);
  value(TOKENS.AccountRemoval, persistence.accountRemoval);
  // Built on first use: a MongoDB store is connected only once the container is built.
  let counters: RateLimits | null = null;
  const countersOf = () =>
    (counters ??= rateLimits(store.counters, config.login, config.actions, config.inbox));
  factory(TOKENS.LoginThrottle, () => countersOf().loginThrottle);
  factory(TOKENS.RegistrationLimit, () => countersOf().registrations);
  factory(TOKENS.AssetWriteLimit, () => countersOf().assetWrites);
  factory(TOKENS.FollowLimits, (): FollowLimits => ({
    perActor: countersOf().followsPerActor,
    perOrigin: countersOf().followsPerOrigin,
    pendingAcceptsPerHost: config.inbox.pendingAcceptsPerHost,
  }));
  value(TOKENS.PurgeExpiredLimits, () => countersOf().purgeExpired(new Date()));
  value(TOKENS.Urls, new Urls(config.publicUrl));

  // Crypto and time
  factory(TOKENS.Clock, () => new SystemClock());
  factory(TOKENS.IdGenerator, () => new CryptoIdGenerator());
  const metrics = new ServiceMetrics();
  value(TOKENS.ServiceMetrics, metrics);
  const hasher = passwordHasher(config, metrics, () => c.resolve<Logger>(TOKENS.Logger));
  value(TOKENS.PasswordHasher, hasher);
  // The dummy hash of unknown-user logins, computed before the first login needs it.
  value(TOKENS.WarmUp, () => hasher.dummy());
  factory(TOKENS.TokenCodec, () => new JwtTokenCodec(config.jwtSecret, config.jwtPreviousSecret));
  factory(
    TOKENS.KeyPairGenerator,
    () =>
      new RsaKeyPairGenerator(
        keyGenerationsAtOnce(availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 4),
      ),
  );
  factory(TOKENS.ActivitySigner, () => new JsonLdActivitySigner());

  // Outbound: notices, deliveries, fetches, and the signatures of incoming requests
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

  // Web
  factory(TOKENS.Views, () => new NunjucksViews({ cache: config.production, version: VERSION }));
  factory(
    TOKENS.CsrfGuard,
    () => new CsrfGuard(deriveKey(config.jwtSecret, 'csrf'), { secure: isHttps(config) }),
  );

  // Background work: the runner and the worker wake each other (a settled job leaves room to claim the next).
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
  factory(TOKENS.QueueWorker, (c) => {
    const notifier = c.resolve<HttpL1Notifier>(TOKENS.L1Notifier);
    const deliveries = c.resolve(Deliveries);
    const logger = c.resolve<Logger>(TOKENS.Logger);
    const runner: JobRunner = new JobRunner(
      c.resolve(TOKENS.JobQueue),
      {
        revocation_notice: (notice) => notifier.notify(notice),
        activity_delivery: (delivery) => deliveries.activity(delivery),
        document_delivery: (delivery) => deliveries.document(delivery),
      },
      c.resolve(TOKENS.Clock),
      c.resolve(TOKENS.IdGenerator),
      { ...DEFAULT_RETRY_POLICY, firstDelayMs: config.noticeRetryFirstDelayMs },
      logger,
      {
        ...DEFAULT_RUNNER_LIMITS,
        concurrency: config.delivery.concurrency,
        perLane: config.delivery.perHost,
        leaseMs: config.delivery.leaseMs,
      },
      () => worker.jobsQueued(),
      metrics,
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

  // Application services shared by several use-cases
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
    PasswordCheck,
    (c) =>
      new PasswordCheck(
        c.resolve(TOKENS.UserRepository),
        c.resolve(TOKENS.PasswordHasher),
        c.resolve(TOKENS.LoginThrottle),
      ),
  );
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

  registerUseCases(c);
  override(c);
  return c;
}

export const isHttps = (config: Config): boolean => config.publicUrl.startsWith('https:');

/** The store opened by this container; closing it is the caller's job (tsyringe's dispose does not). */
export const persistenceOf = (c: DependencyContainer): Persistence =>
  c.resolve<Persistence>(TOKENS.Persistence);
