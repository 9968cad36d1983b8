// The services several use-cases share (and no edge calls alone), each made once from the ports and the other
// services. A service never takes a use-case: what two use-cases share lives here (docs/architecture.md).
import type { ApplicationPorts } from './application-ports.js';
import { ActorResolution } from './services/actor-resolution.js';
import { ActorViews } from './services/actor-views.js';
import { AssetWrites } from './services/asset-writes.js';
import { AuthenticateToken } from './services/authenticate-token.js';
import { ClientAuthentication } from './services/client-authentication.js';
import { ClientRegistry } from './services/client-registry.js';
import { Deliveries } from './services/deliveries.js';
import { IdentityConfirmation } from './services/identity-confirmation.js';
import { InstanceActorKeys } from './services/instance-actor-keys.js';
import { JobRunner, type JobHandlers } from './services/job-runner.js';
import { NoticeSender } from './services/notice-sender.js';
import { OpenIdClaims } from './services/openid-claims.js';
import { PasskeyAssertions } from './services/passkey-assertions.js';
import { PasswordCheck } from './services/password-check.js';
import { PublishActivity } from './services/publish-activity.js';
import { ResetLinks } from './services/reset-links.js';
import { RevocationWriter } from './services/revocation-writer.js';
import { ScopedTokenGrant } from './services/scoped-token-grant.js';
import { SecondSteps } from './services/second-steps.js';
import { SessionStart } from './services/session-start.js';
import { TokenIssuer } from './services/token-issuer.js';
import { EntryBundles } from './services/transparency/entry-bundles.js';
import { TransparencyLog } from './services/transparency/transparency-log.js';

/** The services several use-cases share. */
export interface ApplicationServices {
  readonly tokenIssuer: TokenIssuer;
  readonly authenticateToken: AuthenticateToken;
  readonly revocationWriter: RevocationWriter;
  /** What renderer attach and "Sign in with L2" share: the attachment and the scoped token's rules. */
  readonly scopedTokenGrant: ScopedTokenGrant;
  /** L1 server URL clients and document clients (API.md §2.5), looked up and kept. */
  readonly clientRegistry: ClientRegistry;
  /** Who calls the token, introspection and revocation endpoints (API.md §2.5). */
  readonly clientAuthentication: ClientAuthentication;
  readonly passwordCheck: PasswordCheck;
  /** The end of every sign-in: a session token, kept only if the account is still as the sign-in found it. */
  readonly sessionStart: SessionStart;
  /** The second step of a password sign-in when the account's second factor is on. */
  readonly secondSteps: SecondSteps;
  /** Passkey sign-in challenges and the check of their answers. */
  readonly passkeyAssertions: PasskeyAssertions;
  /** A signed-in person proving again who they are (password or passkey) before a change of their security. */
  readonly identityConfirmation: IdentityConfirmation;
  /** An operator's reset links: made, and read the one way by the page and by the reset. */
  readonly resetLinks: ResetLinks;
  readonly publishActivity: PublishActivity;
  /** What the three asset writes share (AssetWrites). */
  readonly assetWriting: AssetWrites;
  /** The ID tokens and profile claims of OpenID Connect (API.md §2.5). */
  readonly openIdClaims: OpenIdClaims;
  /** An actor with its pictures: what its document and its profile Update show. */
  readonly actorViews: ActorViews;
  /** An actor a person names (a block, an alias, a move target), read afresh within LOOKUPS_PER_USER. */
  readonly actorResolution: ActorResolution;
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

/** What a service or a use-case is made from: the ports and the services, each reached by name. */
export type Parts = ApplicationPorts & ApplicationServices;

export const SERVICES: { readonly [K in keyof ApplicationServices]: (p: Parts) => ApplicationServices[K] } = {
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
  clientRegistry: (p) =>
    new ClientRegistry(p.oauthClients.documents, p.clock, p.caches, p.oauthClients.allowLoopback),
  clientAuthentication: (p) =>
    new ClientAuthentication(p.clientRegistry, p.oauthClients.signatures, p.oauthClients.replays, p.clock, [
      p.urls.base,
      `${p.urls.base}/oauth/token`,
    ]),
  passwordCheck: (p) => new PasswordCheck(p.store.users, p.passwordHasher, p.loginThrottle),
  sessionStart: (p) => new SessionStart(p.tokenIssuer, p.store.users, p.revocationWriter),
  secondSteps: (p) => new SecondSteps(p.store.accountSecurity, p.secrets, p.clock),
  passkeyAssertions: (p) =>
    new PasskeyAssertions(p.passkeyCeremonies, p.store.accountSecurity, p.secrets, p.clock),
  identityConfirmation: (p) =>
    new IdentityConfirmation(p.passwordCheck, p.passkeyAssertions, p.loginThrottle),
  resetLinks: (p) => new ResetLinks(p.store.accountSecurity, p.secrets, p.clock),
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
  actorViews: (p) => new ActorViews(p.store.assets),
  actorResolution: (p) => new ActorResolution(p.federation, p.lookups, p.urls, p.store.users),
  openIdClaims: (p) => new OpenIdClaims(p.idTokenSigner, p.store.users, p.actorViews, p.urls, p.clock),
  deliveries: (p) =>
    new Deliveries(
      p.store.activities,
      p.store.users,
      p.federation,
      p.urls,
      p.caches,
      p.actorViews,
      p.activitySigner,
      p.clock,
    ),
  instanceActorKeys: (p) => new InstanceActorKeys(p.store.instanceKeys, p.keyPairs, p.clock),
  noticeSender: (p) => new NoticeSender(p.l1Notifier, p.noticeSigner, p.clock),
  jobRunner: (p) => {
    // One handler per job kind (a total map: a new kind does not compile until it has one).
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
