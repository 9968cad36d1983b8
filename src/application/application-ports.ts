// What the application is made of: the ports the composition root fills with adapters, and a few settings. The
// services (application-services.ts) and the use-cases (use-cases.ts, by area) are made from these alone.
import type { Urls } from '../domain/activity-streams.js';
import type { RetryPolicy } from '../domain/delivery-policy.js';
import type { ActivitySigner } from './ports/activity-signer.js';
import type { AssertionReplays } from './ports/assertion-replays.js';
import type { ClientAssertionSignatures } from './ports/client-assertion-signatures.js';
import type { ClientDocumentSource } from './ports/client-document-source.js';
import type { CacheFactory } from './ports/bounded-cache.js';
import type { Clock } from './ports/clock.js';
import type { DestinationPolicy } from './ports/destination-policy.js';
import type { FailureLimit } from './ports/failure-limit.js';
import type { FederationClient } from './ports/federation-client.js';
import type { IdGenerator } from './ports/id-generator.js';
import type { JobObserver } from './ports/job-observer.js';
import type { IdTokenSigner } from './ports/id-token-signer.js';
import type { KeyPairGenerator } from './ports/key-pair-generator.js';
import type { L1Notifier } from './ports/l1-notifier.js';
import type { LogCoverage } from './ports/log-coverage.js';
import type { BundleCompression } from './ports/bundle-compression.js';
import type { EntryBundleLimits } from './services/transparency/entry-bundles.js';
import type { LoginThrottle } from './ports/login-throttle.js';
import type { NoticeSigner } from './ports/notice-signer.js';
import type { OneTimeCodes } from './ports/one-time-codes.js';
import type { OneTimePasswords } from './ports/one-time-passwords.js';
import type { PasskeyCeremonies } from './ports/passkey-ceremonies.js';
import type { PasswordHasher } from './ports/password-hasher.js';
import type { Persistence } from './ports/persistence.js';
import type { ProblemLog } from './ports/problem-log.js';
import type { RateLimit } from './ports/rate-limit.js';
import type { SecretGenerator } from './ports/secret-generator.js';
import type { SignatureVerifier } from './ports/signature-verifier.js';
import type { TokenCodec } from './ports/token-codec.js';
import type { TransparencyObserver } from './ports/transparency-observer.js';
import type { WorkSignal } from './ports/work-signal.js';
import type { RunnerLimits } from './services/job-runner.js';
import type { TransparencyLogSettings } from './services/transparency/transparency-log.js';
import type { FollowLimits } from './use-cases/federation/receive-activity.js';

/** What the application is made of: the ports (filled by adapters) and a few settings. */
export interface ApplicationPorts {
  /** Every persistence port, from one store. */
  readonly store: Persistence;
  readonly passwordHasher: PasswordHasher;
  readonly tokenCodec: TokenCodec;
  readonly keyPairs: KeyPairGenerator;
  readonly activitySigner: ActivitySigner;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Challenges, reset links and recovery codes, and the hashes the store keeps of them. */
  readonly secrets: SecretGenerator;
  /** TOTP codes of the second factor. */
  readonly oneTimePasswords: OneTimePasswords;
  /** WebAuthn's ceremonies for PUBLIC_URL's host. */
  readonly passkeyCeremonies: PasskeyCeremonies;
  /** Makes the bounded caches of the services (decoded tokens, activities being delivered). */
  readonly caches: CacheFactory;
  readonly destinations: DestinationPolicy;
  readonly l1Notifier: L1Notifier;
  /** Clients identified by documents (API.md §2.5): their fetch, their assertions' signatures and jti memory. */
  readonly oauthClients: {
    readonly documents: ClientDocumentSource;
    readonly signatures: ClientAssertionSignatures;
    readonly replays: AssertionReplays;
    /** L1_ALLOW_PRIVATE: `http` client_ids on loopback are looked up as documents too. */
    readonly allowLoopback: boolean;
  };
  /** Signs the logout token of each revocation notice attempt. */
  readonly noticeSigner: NoticeSigner;
  /** Signs the ID tokens of OpenID Connect code exchanges (API.md §2.5). */
  readonly idTokenSigner: IdTokenSigner;
  /** The codes of "Sign in with L2" and its PKCE check. */
  readonly oneTimeCodes: OneTimeCodes;
  readonly federation: FederationClient;
  readonly signatureVerifier: SignatureVerifier;
  /** Wakes the outbound worker when a write queued jobs. */
  readonly workSignal: WorkSignal;
  readonly loginThrottle: LoginThrottle;
  /** Introspections answered inactive, per client address (RFC 7662 §2.1). */
  readonly introspectionFailures: FailureLimit;
  /** Registrations per client address. */
  readonly registrations: RateLimit;
  /** Asset writes (and renderer attaches) per user. */
  readonly assetWrites: RateLimit;
  /** Passkey sign-in challenges per client address (each is a store write before anyone is known). */
  readonly passkeyChallenges: RateLimit;
  /** Wrong authenticator-app codes per account and day (the second step's own limit, never cleared by a success). */
  readonly appCodeFailures: FailureLimit;
  readonly follows: FollowLimits;
  /** Follower actions per user and hour (accept, reject, remove, block, unblock): each queues one delivery. */
  readonly followerActions: RateLimit;
  /** Requests per user and hour made to resolve an actor they name (WebFinger, actor fetch): API.md §4.3. */
  readonly lookups: RateLimit;
  /** Every absolute URL the service emits, from PUBLIC_URL. */
  readonly urls: Urls;
  /** The outbound worker's settings and who hears of its attempts and problems. */
  readonly jobs: {
    readonly retryPolicy: RetryPolicy;
    readonly limits: RunnerLimits;
    readonly problems: ProblemLog;
    readonly observer?: JobObserver;
    /** Called whenever a job settles, so the worker claims into the freed slot. */
    readonly onSettled?: () => void;
  };
  /** The transparency log (API.md §8): its origin, key and crypto, and who hears of what it does. */
  readonly transparency: {
    readonly settings: TransparencyLogSettings;
    readonly observer: TransparencyObserver;
    readonly problems: ProblemLog;
    /**
     * What writes wait on before they are answered: the TransparencyLog service unless given. Only the bench gives
     * another (none at all), to measure what covering every write costs.
     */
    readonly coverage?: LogCoverage;
  };
  /** The log's entry bundles: their gzip (off the event loop) and the bounds on building them (issue 33). */
  readonly logBundles: { readonly compression: BundleCompression; readonly limits: EntryBundleLimits };
}
