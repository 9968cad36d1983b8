import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { FederationMode } from '../domain/domain-rules.js';
import { publicAddress, type PublicAddress } from '../domain/public-address.js';
import type { ServerLimits } from '../adapters/http/http-server.js';
import type { PeopleLimits } from '../adapters/throttle/rate-limits.js';
import { ConfigError } from './config-error.js';
import { ed25519KeyPairFromPkcs8Pem, generateEd25519Pkcs8Pem } from '@l2/tlog/node-crypto';
import { logOriginOf } from '@l2/tlog';
import {
  loadJwtSecret,
  loadIdTokenSigningKeys,
  loadNoticeSigningKeys,
  loadPreviousJwtSecret,
  loadTlogSigningKey,
  TLOG_KEY_FILE,
  type NoticeKeyFiles,
} from './secrets.js';
import { booleanFlag, int } from './env-fields.js';
import { STORE_ENV, storeLocation } from './store-config.js';
import type { StoreLocation } from './store-drivers.js';
import { canParseUrl } from '../domain/url-parse.js';
export { ConfigError };

const EnvSchema = z.object({
  PORT: int(0, 65535, 8200),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z
    .string()
    .default('http://localhost:8200')
    .refine(
      (v) => /^https?:\/\/[^/?#]+(\/[^?#]*)?$/i.test(v) && canParseUrl(v),
      'must be an absolute http(s) URL',
    ),
  ...STORE_ENV,
  SECRETS_DIR: z.string().min(1).default('/run/secrets'),
  BCRYPT_COST: int(4, 17, 12),
  // Five seconds of hashing may wait for a core; a password check beyond that is refused with 503. Enough for the
  // bench's 16 concurrent logins on two cores under a verify flood (about 2.5 s of line), short of making a person
  // wait long.
  BCRYPT_QUEUE_SECONDS: int(1, 600, 5),
  L1_ALLOW_PRIVATE: booleanFlag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('development'),
  TRUST_PROXY: booleanFlag,
  LOGIN_MAX_FAILURES_PER_USERNAME: int(1, 1_000_000, 10),
  LOGIN_MAX_FAILURES_PER_ADDRESS: int(1, 1_000_000, 50),
  // One home (/56: 256 /64s) and one site (/48: 65,536 /64s) each get a budget beside each /64's.
  LOGIN_MAX_FAILURES_PER_56: int(1, 1_000_000, 100),
  LOGIN_MAX_FAILURES_PER_48: int(1, 1_000_000, 200),
  LOGIN_FAILURE_WINDOW_SECONDS: int(1, 86_400 * 30, 900),
  // Introspected tokens that do not verify, per client address (RFC 7662 §2.1: no token scanning); a token L2 signed
  // is always answered. An L1 server asks from one address for all its users (docs/configuration.md).
  INTROSPECTION_MAX_FAILURES_PER_ADDRESS: int(1, 10_000_000, 1000),
  INTROSPECTION_FAILURE_WINDOW_SECONDS: int(1, 86_400, 900),
  REGISTRATIONS_PER_ADDRESS: int(1, 1_000_000, 10),
  REGISTRATION_WINDOW_SECONDS: int(1, 86_400 * 30, 3600),
  // Passkey sign-in challenges one client address may ask for per minute (each is a store write).
  PASSKEY_CHALLENGES_PER_ADDRESS: int(1, 1_000_000, 60),
  APP_CODE_FAILURES_PER_DAY: int(1, 1_000_000, 20),
  ASSET_WRITES_PER_USER: int(1, 1_000_000, 60),
  ASSET_WRITE_WINDOW_SECONDS: int(1, 86_400, 60),
  REVOCATION_CLEANUP_INTERVAL_SECONDS: int(1, 86_400 * 7, 3600),
  QUEUE_POLL_INTERVAL_MS: int(10, 600_000, 1000),
  NOTICE_RETRY_FIRST_DELAY_MS: int(1, 600_000, 2000),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  DELIVERY_CONCURRENCY: int(1, 10_000, 512),
  // One or two at once per destination: more would let one user aim L2's connections at one host.
  DELIVERY_PER_HOST: int(1, 2, 2),
  // Longer than an attempt may take (10 s), so that a live worker never loses a job mid-attempt.
  DELIVERY_LEASE_SECONDS: int(15, 3600, 60),
  // A client gets this long to send its request's headers, and this long for the whole request (a 256 KiB inbox
  // body at a slow mobile link's pace): half-open connections cannot pile up.
  HTTP_HEADERS_TIMEOUT_SECONDS: int(1, 300, 10),
  HTTP_REQUEST_TIMEOUT_SECONDS: int(1, 3600, 60),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  // Issue 23: what one remote server can make the inbox store and send (docs/configuration.md says why these).
  FOLLOWS_PER_ACTOR: int(1, 1_000_000, 100),
  FOLLOWS_PER_ORIGIN: int(1, 10_000_000, 2000),
  FOLLOW_WINDOW_SECONDS: int(1, 86_400, 3600),
  PENDING_ACCEPTS_PER_HOST: int(1, 1_000_000, 1000),
  // Issue 37 (API.md §4.3): what one user can make L2 send and fetch, per hour.
  FOLLOWER_ACTIONS_PER_USER: int(1, 1_000_000, 300),
  LOOKUPS_PER_USER: int(1, 1_000_000, 60),
  // Issue 37 (API.md §4.3): every domain federates unless blocked, or (allowlist) only allowed ones.
  FEDERATION_MODE: z.enum(['blocklist', 'allowlist']).default('blocklist'),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  /** PUBLIC_URL without a trailing slash (`publicAddress.url`). */
  readonly publicUrl: string;
  /** PUBLIC_URL read once: its host, origin, path and scheme. */
  readonly publicAddress: PublicAddress;
  readonly store: StoreLocation;
  readonly jwtSecret: Buffer;
  /** The secret before the last rotation (`jwt_secret.previous`): verifies tokens it signed; signs nothing. */
  readonly jwtPreviousSecret: Buffer | null;
  /** The keys that sign revocation notices (`notice_signing_key`, `.previous`), PKCS#8 PEM: never the token secret. */
  readonly noticeKeys: NoticeKeyFiles;
  /** The keys that sign ID tokens (`id_token_signing_key`, `.previous`; RSA, PKCS#8 PEM): API.md §2.5. */
  readonly idTokenKeys: NoticeKeyFiles;
  /** The transparency log (API.md §8): its origin (from PUBLIC_URL) and its signing key (`tlog_signing_key`). */
  readonly tlog: {
    readonly origin: string;
    /** PKCS#8 PEM of an Ed25519 key: checked when the configuration is read. */
    readonly signingKeyPem: string;
  };
  readonly bcryptCost: number;
  /** The most hashing, in seconds of work, that may wait for a core; beyond it a hash or check is refused. */
  readonly bcryptQueueSeconds: number;
  readonly production: boolean;
  /** Whether outbound requests may go to loopback/private addresses: only with L1_ALLOW_PRIVATE, in every mode. */
  readonly allowPrivateDestinations: boolean;
  /** FEDERATION_MODE: which domains L2 federates with (API.md §4.3); every instance of a store runs the same. */
  readonly federationMode: FederationMode;
  readonly logLevel: string;
  readonly trustProxy: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <it>`; otherwise /metrics is open. */
  readonly metricsToken: string | null;
  readonly login: {
    readonly maxFailuresPerUsername: number;
    /** Per IPv4 address or IPv6 /64. */
    readonly maxFailuresPerAddress: number;
    /** Per IPv6 /56 (one home) and /48 (one site). */
    readonly maxFailuresPer56: number;
    readonly maxFailuresPer48: number;
    readonly windowSeconds: number;
  };
  /** RFC 7662 §2.1: introspections answered inactive per client address (IPv4, or IPv6 /64) and window. */
  readonly introspection: {
    readonly maxFailuresPerAddress: number;
    readonly windowSeconds: number;
  };
  readonly actions: {
    readonly registrationsPerAddress: number;
    readonly registrationWindowSeconds: number;
    readonly assetWritesPerUser: number;
    readonly assetWriteWindowSeconds: number;
    /** Passkey sign-in challenges per client address (an IPv6 /64) and minute. */
    readonly passkeyChallengesPerAddress: number;
    /** Wrong authenticator-app codes per account and day, after which app codes are refused (recovery codes not). */
    readonly appCodeFailuresPerUser: number;
  };
  /** What one remote server can make the inbox store and send. */
  readonly inbox: {
    /** Follows one remote actor may send per window. */
    readonly followsPerActor: number;
    /** Follows one remote origin may send per window, all its actors together. */
    readonly followsPerOrigin: number;
    readonly followWindowSeconds: number;
    /** Accepts that may wait undelivered for one host; a Follow that would queue another is answered 429. */
    readonly pendingAcceptsPerHost: number;
  };
  /** What one user can make L2 send and fetch (API.md §4.3), per hour. */
  readonly people: PeopleLimits;
  readonly revocationCleanupIntervalMs: number;
  readonly queuePollIntervalMs: number;
  /** The first retry delay of every outbound job (notices and deliveries). */
  readonly noticeRetryFirstDelayMs: number;
  readonly delivery: {
    /** Outbound jobs in flight at once. */
    readonly concurrency: number;
    /** Outbound jobs in flight at once to one host that answers well. */
    readonly perHost: number;
    /** How long a claimed job stays with its worker: a job of a process that died is taken up after this. */
    readonly leaseMs: number;
  };
  /** What the HTTP listener gives each client: see adapters/http/http-server.ts. */
  readonly http: ServerLimits;
}

/** Reads and validates the environment, the JWT secret and the notice keys once; any problem is one clear line. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { warn?: (message: string) => void; dataDir?: string } = {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${issue?.path.join('.') ?? 'environment'}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && e.BCRYPT_COST < 10)
    throw new ConfigError('BCRYPT_COST: must be at least 10 in production');
  const address = publicAddress(e.PUBLIC_URL);
  const publicUrl = address.url;
  const warn = options.warn ?? ((m: string) => console.warn(m));
  const dataDir = options.dataDir ?? './data';
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicAddress: address,
    store: storeLocation(e),
    jwtSecret: loadJwtSecret({
      secretsDir: e.SECRETS_DIR,
      production,
      dataDir: options.dataDir ?? './data',
      warn: options.warn ?? ((m) => console.warn(m)),
    }),
    jwtPreviousSecret: loadPreviousJwtSecret({
      secretsDir: e.SECRETS_DIR,
      dataDir: options.dataDir ?? './data',
    }),
    noticeKeys: loadNoticeSigningKeys({ secretsDir: e.SECRETS_DIR, production, dataDir, warn }),
    idTokenKeys: loadIdTokenSigningKeys({ secretsDir: e.SECRETS_DIR, production, dataDir, warn }),
    tlog: {
      origin: tlogOrigin(publicUrl),
      signingKeyPem: checkedTlogKey(
        loadTlogSigningKey({
          secretsDir: e.SECRETS_DIR,
          production,
          dataDir,
          warn,
          generate: generateEd25519Pkcs8Pem,
        }),
      ),
    },
    bcryptCost: e.BCRYPT_COST,
    bcryptQueueSeconds: e.BCRYPT_QUEUE_SECONDS,
    production,
    allowPrivateDestinations: e.L1_ALLOW_PRIVATE,
    federationMode: e.FEDERATION_MODE,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN ?? null,
    login: {
      maxFailuresPerUsername: e.LOGIN_MAX_FAILURES_PER_USERNAME,
      maxFailuresPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
      maxFailuresPer56: e.LOGIN_MAX_FAILURES_PER_56,
      maxFailuresPer48: e.LOGIN_MAX_FAILURES_PER_48,
      windowSeconds: e.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    introspection: {
      maxFailuresPerAddress: e.INTROSPECTION_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: e.INTROSPECTION_FAILURE_WINDOW_SECONDS,
    },
    actions: {
      registrationsPerAddress: e.REGISTRATIONS_PER_ADDRESS,
      registrationWindowSeconds: e.REGISTRATION_WINDOW_SECONDS,
      assetWritesPerUser: e.ASSET_WRITES_PER_USER,
      assetWriteWindowSeconds: e.ASSET_WRITE_WINDOW_SECONDS,
      passkeyChallengesPerAddress: e.PASSKEY_CHALLENGES_PER_ADDRESS,
      appCodeFailuresPerUser: e.APP_CODE_FAILURES_PER_DAY,
    },
    inbox: {
      followsPerActor: e.FOLLOWS_PER_ACTOR,
      followsPerOrigin: e.FOLLOWS_PER_ORIGIN,
      followWindowSeconds: e.FOLLOW_WINDOW_SECONDS,
      pendingAcceptsPerHost: e.PENDING_ACCEPTS_PER_HOST,
    },
    people: {
      followerActionsPerUser: e.FOLLOWER_ACTIONS_PER_USER,
      lookupsPerUser: e.LOOKUPS_PER_USER,
    },
    revocationCleanupIntervalMs: e.REVOCATION_CLEANUP_INTERVAL_SECONDS * 1000,
    queuePollIntervalMs: e.QUEUE_POLL_INTERVAL_MS,
    noticeRetryFirstDelayMs: e.NOTICE_RETRY_FIRST_DELAY_MS,
    delivery: {
      concurrency: e.DELIVERY_CONCURRENCY,
      perHost: e.DELIVERY_PER_HOST,
      leaseMs: e.DELIVERY_LEASE_SECONDS * 1000,
    },
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: Math.max(e.HTTP_REQUEST_TIMEOUT_SECONDS, e.HTTP_HEADERS_TIMEOUT_SECONDS) * 1000,
      maxConnections: e.HTTP_MAX_CONNECTIONS ?? defaultMaxConnections(e.DELIVERY_CONCURRENCY),
    },
  };
}

/** The log's origin from PUBLIC_URL, or a one-line refusal when it cannot be a signed-note key name. */
function tlogOrigin(publicUrl: string): string {
  const origin = logOriginOf(publicUrl);
  if (origin === null)
    throw new ConfigError(
      "PUBLIC_URL: its host and path name the transparency log, so they cannot hold '+' or spaces",
    );
  return origin;
}

/** The key file's PEM when it holds an Ed25519 private key; otherwise a one-line refusal. */
function checkedTlogKey(pem: string): string {
  try {
    ed25519KeyPairFromPkcs8Pem(pem);
  } catch (error) {
    throw new ConfigError(
      `${TLOG_KEY_FILE}: not an Ed25519 private key in PKCS#8 PEM (${(error as Error).message})`,
    );
  }
  return pem;
}

/** Descriptors kept for the store, outbound fetches, logs and the like, beyond deliveries and clients. */
const RESERVED_DESCRIPTORS = 128;

/**
 * Client connections at most: what the process's descriptor limit leaves once deliveries (one socket each) and a
 * reserve are counted, so that a flood of idle connections makes new ones wait, not the process fail with EMFILE.
 */
function defaultMaxConnections(deliveryConcurrency: number): number {
  const limit = openFilesLimit() ?? 4096;
  return Math.max(64, limit - deliveryConcurrency - RESERVED_DESCRIPTORS);
}

/** The soft limit on open files (Linux), or null where it cannot be read. */
function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isSafeInteger(soft) && soft > 0 ? soft : null;
  } catch {
    return null;
  }
}
