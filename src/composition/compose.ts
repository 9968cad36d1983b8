// The composition root: the one place that knows which adapter fills which port. Production, the CLI and the tests
// all build L2 here; a test swaps a part by giving its own factory, typed like the part (docs/adr/0008).
import { createSecretKey, hkdfSync } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { pino, type Logger } from 'pino';
import type { DocumentFetcher } from '../application/ports/document-fetcher.js';
import { lazy, type Factories } from '../application/lazy.js';
import {
  createApplication,
  DEFAULT_ENTRY_BUNDLE_LIMITS,
  DEFAULT_RETRY_POLICY,
  DEFAULT_RUNNER_LIMITS,
  type Application,
  type ApplicationPorts,
  type ApplicationServices,
  type UseCases,
} from '../application/use-cases.js';
import { LruCacheFactory } from '../adapters/cache/lru-cache-factory.js';
import { ZlibBundleCompression } from '../adapters/compression/zlib-bundle-compression.js';
import type { BcryptPasswordHasher } from '../adapters/crypto/bcrypt-password-hasher.js';
import { CryptoIdGenerator } from '../adapters/crypto/crypto-id-generator.js';
import { CryptoOneTimeCodes } from '../adapters/crypto/crypto-one-time-codes.js';
import { CryptoSecretGenerator } from '../adapters/crypto/crypto-secret-generator.js';
import { OtpauthOneTimePasswords } from '../adapters/crypto/otpauth-one-time-passwords.js';
import { SimpleWebAuthnPasskeys } from '../adapters/crypto/simple-webauthn-passkeys.js';
import { JoseClientAssertionSignatures } from '../adapters/crypto/jose-client-assertion-signatures.js';
import { JwtTokenCodec } from '../adapters/crypto/jwt-token-codec.js';
import { JsonLdActivitySigner } from '../adapters/crypto/ld-signature/json-ld-activity-signer.js';
import { IdTokenSigningKeys } from '../adapters/crypto/id-token-signing-keys.js';
import { NoticeSigningKeys } from '../adapters/crypto/notice-signing-keys.js';
import { ed25519KeyPairFromPkcs8Pem, nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import { keyGenerationsAtOnce, RsaKeyPairGenerator } from '../adapters/crypto/rsa-key-pair-generator.js';
import { CsrfGuard } from '../adapters/http/koa/csrf.js';
import { SignInMarks } from '../adapters/http/koa/sign-in-marks.js';
import type { OpenedStore } from '../adapters/persistence/store-driver.js';
import { ServiceMetrics } from '../adapters/metrics/service-metrics.js';
import { registerStoreMetrics } from '../adapters/metrics/store-metrics.js';
import { HttpFederationClient } from '../adapters/outbound/http-federation-client.js';
import { HttpClientDocumentSource } from '../adapters/outbound/http-client-document-source.js';
import { HttpL1Notifier } from '../adapters/outbound/http-l1-notifier.js';
import { IpDestinationPolicy } from '../adapters/outbound/ip-destination-policy.js';
import { OutboundHttp } from '../adapters/outbound/outbound-request.js';
import { QueueWorker } from '../adapters/scheduling/queue-worker.js';
import { HttpSignatureVerifier } from '../adapters/signatures/http-signature-verifier.js';
import { rateLimits, type RateLimits } from '../adapters/throttle/rate-limits.js';
import { SystemClock } from '../adapters/time/system-clock.js';
import { NunjucksViews } from '../adapters/views/nunjucks/nunjucks-views.js';
import { Urls } from '../domain/activity-streams.js';
import type { Config } from './config.js';
import { passwordHasher } from './password-hashing.js';
import { openStore } from './store-drivers.js';
import { VERSION } from './version.js';

/** Everything one L2 process is made of: the application's ports and the adapters around them. */
export interface L2Parts extends ApplicationPorts {
  readonly config: Config;
  readonly logger: Logger;
  /** The store as opened, with the rate-limit counters' connection next to the data. */
  readonly openedStore: OpenedStore;
  /** Every rate limit, on the store's counters: built on first use (a MongoDB store connects first). */
  readonly rateLimits: RateLimits;
  /** Forgets rate-limit counters whose window is over (the hourly clean-up). */
  readonly purgeExpiredLimits: () => Promise<void>;
  /** Work done once at start-up, before the first request needs it (the dummy hash of unknown-user logins). */
  readonly warmUp: () => Promise<unknown>;
  readonly metrics: ServiceMetrics;
  /** The keys that sign revocation notices (`noticeSigner` is them) and whose public halves /.well-known/jwks.json lists. */
  readonly noticeKeys: NoticeSigningKeys;
  /** The keys that sign ID tokens (`idTokenSigner` is them), published in /.well-known/jwks.json beside the notice keys. */
  readonly idTokenKeys: IdTokenSigningKeys;
  /** The process's bcrypt line (the port `passwordHasher` is it in production). */
  readonly bcrypt: BcryptPasswordHasher;
  /** The address rules of every outbound request (`destinations` is it): checked before and at connect time. */
  readonly ipDestinations: IpDestinationPolicy;
  readonly outboundHttp: OutboundHttp;
  /**
   * The one HTTP federation client of the process: it delivers (`federation`), fetches actors and fetches keys
   * (`documents`), sharing its cache of fetched documents and its fetch slots.
   */
  readonly httpFederation: HttpFederationClient;
  /** Fetches the keys and actors of other servers; the inbound signature verifier reads keys through it. */
  readonly documents: DocumentFetcher;
  readonly views: NunjucksViews;
  readonly csrf: CsrfGuard;
  /** Signs when an authorization request sent the browser to sign in again (prompt=login, max_age). */
  readonly signInMarks: SignInMarks;
  readonly queueWorker: QueueWorker;
  readonly application: Application;
  readonly services: ApplicationServices;
  readonly useCases: UseCases;
}

/** Parts a caller (a test, the CLI) makes its own way; each factory is typed like the part it replaces. */
export type Overrides = Partial<Factories<L2Parts>>;

/** The group commit of checkpoint signing: see TransparencyLogSettings.roundIntervalMs. */
export const TLOG_ROUND_INTERVAL_MS = 4;

/** Derives independent keys from the one configured secret, so the CSRF key is never the JWT key. */
const deriveKey = (secret: Buffer, purpose: string) =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `l2 ${purpose}`, 32)));

export const isHttps = (config: Config): boolean => config.publicAddress.secure;

/** How production makes each part. */
function productionParts(config: Config, openedStore: OpenedStore): Factories<L2Parts> {
  return {
    config: () => config,
    openedStore: () => openedStore,
    logger: () =>
      pino({
        level: config.logLevel,
        base: undefined,
        redact: ['req.headers.authorization', 'req.headers.cookie'],
      }),

    // The store, and the rate limits counted next to its data.
    store: (p) => p.openedStore.persistence,
    rateLimits: (p) =>
      rateLimits(
        p.openedStore.counters,
        config.login,
        config.actions,
        config.inbox,
        config.introspection,
        config.people,
      ),
    loginThrottle: (p) => p.rateLimits.loginThrottle,
    registrations: (p) => p.rateLimits.registrations,
    introspectionFailures: (p) => p.rateLimits.introspectionFailures,
    assetWrites: (p) => p.rateLimits.assetWrites,
    passkeyChallenges: (p) => p.rateLimits.passkeyChallenges,
    appCodeFailures: (p) => p.rateLimits.appCodeFailures,
    follows: (p) => ({
      perActor: p.rateLimits.followsPerActor,
      perOrigin: p.rateLimits.followsPerOrigin,
      pendingAcceptsPerHost: config.inbox.pendingAcceptsPerHost,
    }),
    followerActions: (p) => p.rateLimits.followerActions,
    lookups: (p) => p.rateLimits.lookups,
    purgeExpiredLimits: (p) => () => p.rateLimits.purgeExpired(p.clock.now()),

    // Crypto, time and ids
    clock: () => new SystemClock(),
    ids: () => new CryptoIdGenerator(),
    secrets: () => new CryptoSecretGenerator(),
    oneTimePasswords: () => new OtpauthOneTimePasswords(),
    // The relying party is PUBLIC_URL: its host is the id passkeys are bound to, its origin the one browsers report.
    passkeyCeremonies: () => {
      const { host, hostname, origin } = config.publicAddress;
      return new SimpleWebAuthnPasskeys({ id: hostname, origin, name: `L2 (${host})` });
    },
    caches: () => new LruCacheFactory(),
    metrics: (p) => {
      const metrics = new ServiceMetrics();
      const { instruments } = p.openedStore;
      if (instruments) registerStoreMetrics(metrics.registry, instruments);
      return metrics;
    },
    bcrypt: (p) => passwordHasher(config, p.metrics, () => p.logger),
    passwordHasher: (p) => p.bcrypt,
    warmUp: (p) => () => p.bcrypt.dummy(),
    tokenCodec: () => new JwtTokenCodec(config.jwtSecret, config.jwtPreviousSecret),
    keyPairs: () =>
      new RsaKeyPairGenerator(
        keyGenerationsAtOnce(availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE) || 4),
      ),
    activitySigner: () => new JsonLdActivitySigner(),
    noticeKeys: () => new NoticeSigningKeys(config.noticeKeys.current, config.noticeKeys.previous),
    noticeSigner: (p) => p.noticeKeys,
    idTokenKeys: () => new IdTokenSigningKeys(config.idTokenKeys.current, config.idTokenKeys.previous),
    idTokenSigner: (p) => p.idTokenKeys,
    oneTimeCodes: () => new CryptoOneTimeCodes(),
    urls: () => new Urls(config.publicAddress),

    // Outbound: notices, deliveries, fetches, and the signatures of incoming requests
    ipDestinations: () => new IpDestinationPolicy(config.allowPrivateDestinations),
    destinations: (p) => p.ipDestinations,
    outboundHttp: (p) => new OutboundHttp(p.ipDestinations, `L2/${VERSION} (+${config.publicUrl})`),
    l1Notifier: (p) => new HttpL1Notifier(p.outboundHttp),
    oauthClients: (p) => ({
      documents: new HttpClientDocumentSource(p.outboundHttp),
      signatures: new JoseClientAssertionSignatures(),
      replays: p.rateLimits.assertionReplays,
      allowLoopback: config.allowPrivateDestinations,
    }),
    httpFederation: (p) => {
      const keys = p.services.instanceActorKeys;
      return new HttpFederationClient(
        p.outboundHttp,
        async () => ({ keyId: p.urls.instanceKeyId(), privateKeyPem: (await keys.keyPair()).privateKeyPem }),
        p.clock,
        // As client documents: http only on loopback, and only where private destinations are allowed.
        { httpOnLoopback: config.allowPrivateDestinations },
      );
    },
    federation: (p) => p.httpFederation,
    documents: (p) => p.httpFederation,
    signatureVerifier: (p) =>
      new HttpSignatureVerifier(p.documents, p.store.remoteKeys, p.clock, config.publicAddress),

    // Web
    views: () => new NunjucksViews({ cache: config.production, version: VERSION }),
    csrf: () => new CsrfGuard(deriveKey(config.jwtSecret, 'csrf'), { secure: isHttps(config) }),
    signInMarks: () => new SignInMarks(deriveKey(config.jwtSecret, 'sign-in-marks')),

    // Background work: the runner (an application service) and the worker wake each other.
    jobs: (p) => ({
      retryPolicy: { ...DEFAULT_RETRY_POLICY, firstDelayMs: config.noticeRetryFirstDelayMs },
      limits: {
        ...DEFAULT_RUNNER_LIMITS,
        concurrency: config.delivery.concurrency,
        perLane: config.delivery.perHost,
        leaseMs: config.delivery.leaseMs,
      },
      problems: p.logger,
      observer: p.metrics,
      onSettled: () => p.queueWorker.jobsQueued(),
    }),
    queueWorker: (p) => {
      const runner = p.services.jobRunner;
      return new QueueWorker(
        () => runner.start(),
        config.queuePollIntervalMs,
        p.logger,
        () => runner.settled(),
      );
    },
    workSignal: (p) => p.queueWorker,

    // The transparency log: its key file, Node's SHA-256 and Ed25519, metrics and the error log.
    transparency: (p) => ({
      settings: {
        origin: config.tlog.origin,
        key: ed25519KeyPairFromPkcs8Pem(config.tlog.signingKeyPem),
        crypto: nodeSha256,
        verifyEd25519,
        pause: () => new Promise<void>((resolve) => setImmediate(resolve)),
        // Under a stream of writes one checkpoint covers the writes of 4 ms (bench scenario 11, ADR 13).
        roundIntervalMs: TLOG_ROUND_INTERVAL_MS,
        wait: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
        // Where the store can, the whole log is checked at start-up outside this process (a SQLite file's in a
        // child process: the memory its reads leave is not ours).
        ...(p.openedStore.fullLogCheck ? { fullCheck: p.openedStore.fullLogCheck } : {}),
      },
      observer: {
        checked: (size, seconds) => {
          p.metrics.checked(size, seconds);
          p.logger.info({ size, seconds: Number(seconds.toFixed(3)) }, 'transparency log checked');
        },
        signed: (size) => p.metrics.signed(size),
        inconsistent: () => p.metrics.inconsistent(),
      },
      problems: p.logger,
    }),
    logBundles: () => ({ compression: new ZlibBundleCompression(), limits: DEFAULT_ENTRY_BUNDLE_LIMITS }),

    // The application over all of the above.
    application: (p) => createApplication(p),
    services: (p) => p.application.services,
    useCases: (p) => p.application.useCases,
  };
}

/**
 * L2 over an opened store, each part made on first use. `overrides` replace parts (a fixed clock, a scripted peer);
 * the rest are production's.
 */
export function composeL2(config: Config, openedStore: OpenedStore, overrides: Overrides = {}): L2Parts {
  return lazy<L2Parts>({ ...productionParts(config, openedStore), ...overrides } as Factories<L2Parts>);
}

/** Opens the store STORE names (migrations run there; MongoDB connects on `store.ready()`), then composes L2 over it. */
export async function buildL2(config: Config, overrides: Overrides = {}): Promise<L2Parts> {
  return composeL2(config, await openStore(config.store), overrides);
}
