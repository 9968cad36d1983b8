// The application's parts — its services and every use-case — made from the ports the composition root fills. This
// is the one registration of a use-case: its type (UseCases) is inferred from the list, so adding one touches the
// use-case, its line here and its route (docs/architecture.md).
import type { Urls } from '../domain/activity-streams.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../domain/delivery-policy.js';
import { lazy, type Factories } from './lazy.js';
import type { ActivitySigner } from './ports/activity-signer.js';
import type { CacheFactory } from './ports/bounded-cache.js';
import type { BundleCompression } from './ports/bundle-compression.js';
import type { Clock } from './ports/clock.js';
import type { DestinationPolicy } from './ports/destination-policy.js';
import type { FederationClient } from './ports/federation-client.js';
import type { IdGenerator } from './ports/id-generator.js';
import type { JobObserver } from './ports/job-observer.js';
import type { KeyPairGenerator } from './ports/key-pair-generator.js';
import type { L1Notifier } from './ports/l1-notifier.js';
import type { NoticeSigner } from './ports/notice-signer.js';
import type { OneTimeCodes } from './ports/one-time-codes.js';
import type { FailureLimit } from './ports/failure-limit.js';
import type { LoginThrottle } from './ports/login-throttle.js';
import type { OneTimePasswords } from './ports/one-time-passwords.js';
import type { PasskeyCeremonies } from './ports/passkey-ceremonies.js';
import type { SecretGenerator } from './ports/secret-generator.js';
import type { PasswordHasher } from './ports/password-hasher.js';
import type { Persistence } from './ports/persistence.js';
import type { ProblemLog } from './ports/problem-log.js';
import type { RateLimit } from './ports/rate-limit.js';
import type { SignatureVerifier } from './ports/signature-verifier.js';
import type { TokenCodec } from './ports/token-codec.js';
import type { WorkSignal } from './ports/work-signal.js';
import type { TransparencyObserver } from './ports/transparency-observer.js';
import type { LogCoverage } from './ports/log-coverage.js';
import { TransparencyLog, type TransparencyLogSettings } from './services/transparency/transparency-log.js';
import {
  DEFAULT_ENTRY_BUNDLE_LIMITS,
  EntryBundles,
  type EntryBundleLimits,
} from './services/transparency/entry-bundles.js';
import { GetActivityEntry } from './use-cases/transparency/get-activity-entry.js';
import { GetCheckpoint } from './use-cases/transparency/get-checkpoint.js';
import { GetLogResource } from './use-cases/transparency/get-log-resource.js';
import { ProveInclusion } from './use-cases/transparency/prove-inclusion.js';
import { AssetWrites } from './services/asset-writes.js';
import { AuthenticateToken } from './services/authenticate-token.js';
import { Deliveries } from './services/deliveries.js';
import { InstanceActorKeys } from './services/instance-actor-keys.js';
import {
  DEFAULT_RUNNER_LIMITS,
  JobRunner,
  type JobHandlers,
  type RunnerLimits,
} from './services/job-runner.js';
import { NoticeSender } from './services/notice-sender.js';
import { IdentityConfirmation } from './services/identity-confirmation.js';
import { PasskeyAssertions } from './services/passkey-assertions.js';
import { PasswordCheck } from './services/password-check.js';
import { SecondSteps } from './services/second-steps.js';
import { SessionStart } from './services/session-start.js';
import { RevocationWriter } from './services/revocation-writer.js';
import { ScopedTokenGrant } from './services/scoped-token-grant.js';
import { TokenIssuer } from './services/token-issuer.js';
import { PublishActivity } from './use-cases/registry/publish-activity.js';
import type { FollowLimits } from './use-cases/federation/receive-activity.js';
import { AttachRenderer } from './use-cases/accounts/attach-renderer.js';
import { ChangePassword } from './use-cases/accounts/change-password.js';
import { DeleteAccount } from './use-cases/accounts/delete-account.js';
import { DetachRenderer } from './use-cases/accounts/detach-renderer.js';
import { GetCurrentUser } from './use-cases/accounts/get-current-user.js';
import { GetActorView } from './use-cases/accounts/get-actor-view.js';
import { GetPublicActor } from './use-cases/accounts/get-public-actor.js';
import { UpdateProfile } from './use-cases/accounts/update-profile.js';
import { GetFeatured } from './use-cases/federation/get-featured.js';
import { IssueToken } from './use-cases/accounts/issue-token.js';
import { ListRenderers } from './use-cases/accounts/list-renderers.js';
import { ListSessions } from './use-cases/accounts/list-sessions.js';
import { ListUsers } from './use-cases/accounts/list-users.js';
import { RegisterUser } from './use-cases/accounts/register-user.js';
import { RevokeSession } from './use-cases/accounts/revoke-session.js';
import { RevokeToken } from './use-cases/accounts/revoke-token.js';
import { VerifyToken } from './use-cases/accounts/verify-token.js';
import { CountFollowers } from './use-cases/federation/count-followers.js';
import { ListFollowers } from './use-cases/federation/list-followers.js';
import { ReceiveActivity } from './use-cases/federation/receive-activity.js';
import { ExchangeAuthorizationCode } from './use-cases/oauth/exchange-authorization-code.js';
import { GrantAuthorizationCode } from './use-cases/oauth/grant-authorization-code.js';
import { IntrospectToken } from './use-cases/oauth/introspect-token.js';
import { ReviewAuthorizationRequest } from './use-cases/oauth/review-authorization-request.js';
import { CleanupChallenges } from './use-cases/operations/cleanup-challenges.js';
import { CleanupRevocations } from './use-cases/operations/cleanup-revocations.js';
import { CreateResetLink } from './use-cases/operations/create-reset-link.js';
import { AddPasskey } from './use-cases/security/add-passkey.js';
import { BeginTotpEnrolment } from './use-cases/security/begin-totp-enrolment.js';
import { CompleteSignIn } from './use-cases/security/complete-sign-in.js';
import { DisableTotp } from './use-cases/security/disable-totp.js';
import { EnableTotp } from './use-cases/security/enable-totp.js';
import { GetAccountSecurity } from './use-cases/security/get-account-security.js';
import { RegenerateRecoveryCodes } from './use-cases/security/regenerate-recovery-codes.js';
import { RemovePasskey } from './use-cases/security/remove-passkey.js';
import { ResetPassword } from './use-cases/security/reset-password.js';
import { SignInWithPasskey } from './use-cases/security/sign-in-with-passkey.js';
import { StartPasskeyRegistration } from './use-cases/security/start-passkey-registration.js';
import { DescribeUser } from './use-cases/operations/describe-user.js';
import { DisableUser } from './use-cases/operations/disable-user.js';
import { EnableUser } from './use-cases/operations/enable-user.js';
import { GetQueueStatistics } from './use-cases/operations/get-queue-statistics.js';
import { GetStatistics } from './use-cases/operations/get-statistics.js';
import { RevokeUserTokens } from './use-cases/operations/revoke-user-tokens.js';
import { DeleteAsset } from './use-cases/registry/delete-asset.js';
import { GetActivity } from './use-cases/registry/get-activity.js';
import { GetAsset } from './use-cases/registry/get-asset.js';
import { GetEditableAsset } from './use-cases/registry/get-editable-asset.js';
import { ListActivities } from './use-cases/registry/list-activities.js';
import { ListRegistry } from './use-cases/registry/list-registry.js';
import { RegisterAsset } from './use-cases/registry/register-asset.js';
import { UpdateAsset } from './use-cases/registry/update-asset.js';

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
  /** Signs the logout token of each revocation notice attempt. */
  readonly noticeSigner: NoticeSigner;
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

/** The services several use-cases share. */
export interface ApplicationServices {
  readonly tokenIssuer: TokenIssuer;
  readonly authenticateToken: AuthenticateToken;
  readonly revocationWriter: RevocationWriter;
  /** What renderer attach and "Sign in with L2" share: the attachment and the scoped token's rules. */
  readonly scopedTokenGrant: ScopedTokenGrant;
  readonly passwordCheck: PasswordCheck;
  /** The end of every sign-in: a session token, kept only if the account is still as the sign-in found it. */
  readonly sessionStart: SessionStart;
  /** The second step of a password sign-in when the account's second factor is on. */
  readonly secondSteps: SecondSteps;
  /** Passkey sign-in challenges and the check of their answers. */
  readonly passkeyAssertions: PasskeyAssertions;
  /** A signed-in person proving again who they are (password or passkey) before a change of their security. */
  readonly identityConfirmation: IdentityConfirmation;
  readonly publishActivity: PublishActivity;
  /** What the three asset writes share (AssetWrites). */
  readonly assetWriting: AssetWrites;
  readonly deliveries: Deliveries;
  readonly instanceActorKeys: InstanceActorKeys;
  /** Sends a revocation notice with its logout token, signed for the attempt. */
  readonly noticeSender: NoticeSender;
  /** Runs queued outbound jobs with the handler of their kind. */
  readonly jobRunner: JobRunner;
  /** Checks the stored log, signs the checkpoints that cover writes, reads tiles and proofs. */
  readonly transparencyLog: TransparencyLog;
  /** Entry bundles built once, kept encoded, and built within bounds. */
  readonly entryBundles: EntryBundles;
}

type Parts = ApplicationPorts & ApplicationServices;

const SERVICES: { readonly [K in keyof ApplicationServices]: (p: Parts) => ApplicationServices[K] } = {
  tokenIssuer: (p) => new TokenIssuer(p.tokenCodec, p.store.issuedTokens, p.clock, p.ids, p.urls.base),
  authenticateToken: (p) =>
    new AuthenticateToken(p.tokenCodec, p.store.revocations, p.clock, p.urls.base, p.caches),
  revocationWriter: (p) => new RevocationWriter(p.store.revocations, p.workSignal, p.clock, p.urls.base),
  scopedTokenGrant: (p) =>
    new ScopedTokenGrant(
      p.store.attachments,
      p.destinations,
      p.authenticateToken,
      p.revocationWriter,
      p.clock,
      p.store.issuedTokens,
      p.assetWrites,
    ),
  passwordCheck: (p) => new PasswordCheck(p.store.users, p.passwordHasher, p.loginThrottle),
  sessionStart: (p) => new SessionStart(p.tokenIssuer, p.store.users, p.revocationWriter),
  secondSteps: (p) => new SecondSteps(p.store.accountSecurity, p.secrets, p.clock),
  passkeyAssertions: (p) =>
    new PasskeyAssertions(p.passkeyCeremonies, p.store.accountSecurity, p.secrets, p.clock),
  identityConfirmation: (p) =>
    new IdentityConfirmation(p.passwordCheck, p.passkeyAssertions, p.loginThrottle),
  assetWriting: (p) => new AssetWrites(p.store.assets, p.store.users, p.publishActivity, p.assetWrites),
  publishActivity: (p) =>
    new PublishActivity(
      p.store.activities,
      p.store.users,
      p.activitySigner,
      p.clock,
      p.urls,
      p.workSignal,
      p.transparency.coverage ?? p.transparencyLog,
    ),
  transparencyLog: (p) =>
    new TransparencyLog(
      p.store.transparencyLog,
      p.transparency.settings,
      p.transparency.observer,
      p.transparency.problems,
    ),
  entryBundles: (p) =>
    new EntryBundles(
      p.transparencyLog,
      p.logBundles.compression,
      p.caches,
      p.logBundles.limits,
      p.transparency.settings.pause,
    ),
  deliveries: (p) =>
    new Deliveries(
      p.store.activities,
      p.store.users,
      p.federation,
      p.urls,
      p.caches,
      new GetActorView(p.store.assets),
      p.activitySigner,
      p.clock,
    ),
  instanceActorKeys: (p) => new InstanceActorKeys(p.store.instanceKeys, p.keyPairs, p.clock),
  noticeSender: (p) => new NoticeSender(p.l1Notifier, p.noticeSigner, p.clock),
  jobRunner: (p) => {
    const handlers: JobHandlers = {
      revocation_notice: (notice) => p.noticeSender.send(notice),
      activity_delivery: (delivery) => p.deliveries.activity(delivery),
      document_delivery: (delivery) => p.deliveries.document(delivery),
      profile_update: (delivery) => p.deliveries.profileUpdate(delivery),
    };
    const { retryPolicy, limits, problems, observer, onSettled } = p.jobs;
    return new JobRunner(
      p.store.jobs,
      handlers,
      p.clock,
      p.ids,
      retryPolicy,
      problems,
      limits,
      onSettled,
      observer,
    );
  },
};

const USE_CASES = {
  registerUser: (p) =>
    new RegisterUser(p.store.users, p.passwordHasher, p.keyPairs, p.tokenIssuer, p.clock, p.registrations),
  issueToken: (p) => new IssueToken(p.passwordCheck, p.store.accountSecurity, p.secondSteps, p.sessionStart),
  completeSignIn: (p) =>
    new CompleteSignIn(
      p.secondSteps,
      p.store.users,
      p.store.accountSecurity,
      p.oneTimePasswords,
      p.secrets,
      p.loginThrottle,
      p.appCodeFailures,
      p.sessionStart,
      p.clock,
    ),
  signInWithPasskey: (p) =>
    new SignInWithPasskey(p.passkeyAssertions, p.store.users, p.sessionStart, p.passkeyChallenges),
  getAccountSecurity: (p) => new GetAccountSecurity(p.store.accountSecurity),
  beginTotpEnrolment: (p) =>
    new BeginTotpEnrolment(
      p.store.accountSecurity,
      p.oneTimePasswords,
      p.clock,
      `L2 (${new URL(p.urls.base).host})`,
    ),
  enableTotp: (p) =>
    new EnableTotp(
      p.identityConfirmation,
      p.store.accountSecurity,
      p.oneTimePasswords,
      p.secrets,
      p.clock,
      p.store.issuedTokens,
      p.revocationWriter,
    ),
  disableTotp: (p) => new DisableTotp(p.identityConfirmation, p.store.accountSecurity, p.clock),
  regenerateRecoveryCodes: (p) =>
    new RegenerateRecoveryCodes(p.identityConfirmation, p.store.accountSecurity, p.secrets, p.clock),
  startPasskeyRegistration: (p) =>
    new StartPasskeyRegistration(p.passkeyCeremonies, p.store.accountSecurity, p.secrets, p.clock),
  addPasskey: (p) =>
    new AddPasskey(p.identityConfirmation, p.passkeyCeremonies, p.store.accountSecurity, p.secrets, p.clock),
  removePasskey: (p) => new RemovePasskey(p.identityConfirmation, p.store.accountSecurity, p.clock),
  resetPassword: (p) =>
    new ResetPassword(
      p.store.accountSecurity,
      p.secrets,
      p.passwordHasher,
      p.store.issuedTokens,
      p.revocationWriter,
      p.workSignal,
      p.clock,
      p.loginThrottle,
    ),
  verifyToken: (p) => new VerifyToken(p.authenticateToken),
  revokeToken: (p) => new RevokeToken(p.authenticateToken, p.store.issuedTokens, p.revocationWriter, p.clock),
  getCurrentUser: (p) => new GetCurrentUser(p.store.users),
  changePassword: (p) =>
    new ChangePassword(
      p.passwordCheck,
      p.passwordHasher,
      p.store.users,
      p.store.issuedTokens,
      p.revocationWriter,
      p.workSignal,
      p.clock,
    ),
  listSessions: (p) => new ListSessions(p.store.issuedTokens, p.authenticateToken, p.clock),
  revokeSession: (p) =>
    new RevokeSession(p.store.issuedTokens, p.authenticateToken, p.revocationWriter, p.clock),
  deleteAccount: (p) =>
    new DeleteAccount(
      p.passwordCheck,
      p.store.assets,
      p.store.activities,
      p.store.issuedTokens,
      p.store.accountRemoval,
      p.revocationWriter,
      p.activitySigner,
      p.workSignal,
      p.clock,
      p.urls,
      p.transparency.coverage ?? p.transparencyLog,
    ),
  getPublicActor: (p) => new GetPublicActor(p.store.users),
  getActorView: (p) => new GetActorView(p.store.assets),
  updateProfile: (p) =>
    new UpdateProfile(p.store.users, p.store.assets, p.assetWrites, p.workSignal, p.clock),
  listUsers: (p) => new ListUsers(p.store.users),
  attachRenderer: (p) => new AttachRenderer(p.scopedTokenGrant, p.tokenIssuer),
  detachRenderer: (p) =>
    new DetachRenderer(p.store.issuedTokens, p.store.attachments, p.revocationWriter, p.workSignal, p.clock),
  listRenderers: (p) => new ListRenderers(p.store.attachments),

  reviewAuthorizationRequest: (p) => new ReviewAuthorizationRequest(p.destinations),
  grantAuthorizationCode: (p) =>
    new GrantAuthorizationCode(p.scopedTokenGrant, p.oneTimeCodes, p.store.authorizationCodes, p.clock),
  exchangeAuthorizationCode: (p) =>
    new ExchangeAuthorizationCode(
      p.store.authorizationCodes,
      p.oneTimeCodes,
      p.tokenIssuer,
      p.scopedTokenGrant,
      p.authenticateToken,
      p.revocationWriter,
      p.clock,
    ),
  introspectToken: (p) => new IntrospectToken(new VerifyToken(p.authenticateToken), p.introspectionFailures),

  registerAsset: (p) => new RegisterAsset(p.assetWriting),
  updateAsset: (p) => new UpdateAsset(p.assetWriting),
  deleteAsset: (p) => new DeleteAsset(p.assetWriting),
  getAsset: (p) => new GetAsset(p.store.assets),
  getEditableAsset: (p) => new GetEditableAsset(p.store.assets),
  listRegistry: (p) => new ListRegistry(p.store.assets),
  getActivity: (p) => new GetActivity(p.store.activities),
  listActivities: (p) => new ListActivities(p.store.activities),
  getActivityEntry: (p) => new GetActivityEntry(p.transparencyLog),

  getCheckpoint: (p) => new GetCheckpoint(p.transparencyLog),
  getLogResource: (p) => new GetLogResource(p.transparencyLog, p.entryBundles, p.caches),
  proveInclusion: (p) => new ProveInclusion(p.transparencyLog),

  listFollowers: (p) => new ListFollowers(p.store.followers),
  countFollowers: (p) => new CountFollowers(p.store.followers),
  getFeatured: (p) => new GetFeatured(new GetPublicActor(p.store.users), p.store.assets),
  receiveActivity: (p) =>
    new ReceiveActivity(
      p.store.users,
      p.store.followers,
      p.signatureVerifier,
      p.federation,
      p.workSignal,
      p.clock,
      p.ids,
      p.urls,
      p.follows,
    ),

  getStatistics: (p) => new GetStatistics(p.store.users, p.store.assets, p.store.activities),
  getQueueStatistics: (p) => new GetQueueStatistics(p.store.queueAdministration),
  revokeUserTokens: (p) =>
    new RevokeUserTokens(p.store.users, p.store.issuedTokens, p.revocationWriter, p.clock),
  describeUser: (p) =>
    new DescribeUser(
      p.store.users,
      p.store.activities,
      p.store.assets,
      p.store.followers,
      p.store.issuedTokens,
      p.store.attachments,
      p.clock,
    ),
  disableUser: (p) =>
    new DisableUser(p.store.users, p.store.issuedTokens, p.revocationWriter, p.workSignal, p.clock),
  enableUser: (p) => new EnableUser(p.store.users),
  cleanupRevocations: (p) =>
    new CleanupRevocations(p.store.revocations, p.store.issuedTokens, p.store.authorizationCodes, p.clock),
  cleanupChallenges: (p) => new CleanupChallenges(p.store.accountSecurity, p.clock),
  createResetLink: (p) => new CreateResetLink(p.store.users, p.store.accountSecurity, p.secrets, p.clock),
} satisfies Record<string, (p: Parts) => unknown>;

/** Every use-case by name: what the edges of the service (HTTP, the CLI, the hourly clean-up) call. */
export type UseCases = { readonly [K in keyof typeof USE_CASES]: ReturnType<(typeof USE_CASES)[K]> };

/** The application over `ports`: its services and use-cases, each made on first use. */
export interface Application {
  readonly services: ApplicationServices;
  readonly useCases: UseCases;
}

export function createApplication(ports: ApplicationPorts): Application {
  // One object holds the ports and the services, so each is reached by name from any other.
  const given = Object.fromEntries(
    Object.keys(ports).map((key) => [key, () => ports[key as keyof ApplicationPorts]]),
  );
  const parts = lazy<Parts>({ ...(given as unknown as Factories<ApplicationPorts>), ...SERVICES });
  const useCases = lazy<UseCases>(
    Object.fromEntries(
      Object.entries(USE_CASES).map(([name, make]) => [name, () => (make as (p: Parts) => unknown)(parts)]),
    ) as unknown as Factories<UseCases>,
  );
  return { services: parts, useCases };
}

export { DEFAULT_ENTRY_BUNDLE_LIMITS, DEFAULT_RETRY_POLICY, DEFAULT_RUNNER_LIMITS };
