import type { DeliveryOutcome } from '../../src/application/ports/delivery-outcome.js';
import type { L1Notifier } from '../../src/application/ports/l1-notifier.js';
import type { RevocationNotice } from '../../src/domain/revocation.js';
import { TokenIssuer } from '../../src/application/services/token-issuer.js';
import { AttachRenderer } from '../../src/application/use-cases/accounts/attach-renderer.js';
import { AuthenticateToken } from '../../src/application/services/authenticate-token.js';
import { CleanupRevocations } from '../../src/application/use-cases/operations/cleanup-revocations.js';
import { Deliveries } from '../../src/application/services/deliveries.js';
import { DEFAULT_RUNNER_LIMITS, JobRunner } from '../../src/application/services/job-runner.js';
import type {
  ActorLookup,
  FederationClient,
  RemoteActor,
} from '../../src/application/ports/federation-client.js';
import type {
  ActivitySigner,
  JsonLdDocument,
  SigningKey,
} from '../../src/application/ports/activity-signer.js';
import { Urls } from '../../src/domain/activity-streams.js';
import { DetachRenderer } from '../../src/application/use-cases/accounts/detach-renderer.js';
import { PasswordCheck } from '../../src/application/services/password-check.js';
import { IssueToken } from '../../src/application/use-cases/accounts/issue-token.js';
import { ChangePassword } from '../../src/application/use-cases/accounts/change-password.js';
import { DeleteAccount } from '../../src/application/use-cases/accounts/delete-account.js';
import { ListSessions } from '../../src/application/use-cases/accounts/list-sessions.js';
import { RevokeSession } from '../../src/application/use-cases/accounts/revoke-session.js';
import { DeleteAsset } from '../../src/application/use-cases/registry/delete-asset.js';
import { PublishActivity } from '../../src/application/use-cases/registry/publish-activity.js';
import { RegisterAsset } from '../../src/application/use-cases/registry/register-asset.js';
import { ListRenderers } from '../../src/application/use-cases/accounts/list-renderers.js';
import { RegisterUser } from '../../src/application/use-cases/accounts/register-user.js';
import { RevocationWriter } from '../../src/application/services/revocation-writer.js';
import { RevokeToken } from '../../src/application/use-cases/accounts/revoke-token.js';
import { VerifyToken } from '../../src/application/use-cases/accounts/verify-token.js';
import { BcryptPasswordHasher } from '../../src/adapters/crypto/bcrypt-password-hasher.js';
import { JwtTokenCodec } from '../../src/adapters/crypto/jwt-token-codec.js';
import { openMemoryPersistence } from '../../src/adapters/persistence/memory/open-memory-persistence.js';
import { RateLimiterBudget } from '../../src/adapters/throttle/rate-limiter-budget.js';
import { RateLimiterLoginThrottle } from '../../src/adapters/throttle/rate-limiter-login-throttle.js';
import { DEFAULT_RETRY_POLICY } from '../../src/domain/delivery-policy.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { FixedClock, SequentialIds } from './fixed-clock.js';

export const KIT_L2 = 'https://l2.example';
/** The client address kit registrations come from. */
export const KIT_ADDRESS = '192.0.2.1';
/** Registrations per address and window in the kit. */
export const KIT_REGISTRATIONS_PER_ADDRESS = 5;

/** The login throttle on memory counters: attempts per username and per address, and per IPv6 /56 and /48. */
export function memoryLoginThrottle(points: {
  perUsername: number;
  perAddress: number;
  per56?: number;
  per48?: number;
}): RateLimiterLoginThrottle {
  const limiter = (keyPrefix: string, allowed: number) =>
    new RateLimiterMemory({ keyPrefix, points: allowed, duration: 900 });
  return new RateLimiterLoginThrottle(limiter('u', points.perUsername), limiter('a', points.perAddress), {
    slash56: limiter('n56', points.per56 ?? points.perAddress),
    slash48: limiter('n48', points.per48 ?? points.perAddress),
  });
}

/** An L1 notifier whose answers the test scripts; it records every notice it was asked to send. */
export class ScriptedNotifier implements L1Notifier {
  readonly sent: RevocationNotice[] = [];
  outcomes: DeliveryOutcome[] = [];

  async notify(notice: RevocationNotice): Promise<DeliveryOutcome> {
    this.sent.push(notice);
    return this.outcomes.shift() ?? { kind: 'delivered' };
  }
}

/** A federation client whose answers the test scripts; it records every delivery it was asked to make. */
export class ScriptedFederation implements FederationClient {
  readonly delivered: { inbox: string; document: JsonLdDocument; key: SigningKey }[] = [];
  /** Answers by inbox; `delivered` when none is scripted. */
  outcomes = new Map<string, DeliveryOutcome[]>();
  actors = new Map<string, RemoteActor>();

  async deliver(inbox: string, document: JsonLdDocument, key: SigningKey): Promise<DeliveryOutcome> {
    this.delivered.push({ inbox, document, key });
    return this.outcomes.get(inbox)?.shift() ?? { kind: 'delivered' };
  }

  async fetchActor(id: string): Promise<ActorLookup> {
    const actor = this.actors.get(id);
    return actor ? { ok: true, actor } : { ok: false, retryable: false, reason: 'no such actor' };
  }
}

/** Problems the runner reports, kept for assertions. */
export class RecordedProblems {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  error(_context: Record<string, unknown>, message: string): void {
    this.errors.push(message);
  }
  warn(_context: Record<string, unknown>, message: string): void {
    this.warnings.push(message);
  }
}

/**
 * Every use-case wired by hand on the memory store, a fixed clock and sequential ids — real crypto (bcrypt cost 4,
 * HS256) and a fake key generator, so use-case tests are fast and time moves only when they say.
 */
export function useCaseKit(start = new Date('2026-11-22T10:00:00.000Z')) {
  const clock = new FixedClock(start);
  const ids = new SequentialIds();
  const store = openMemoryPersistence();
  const signals = {
    count: 0,
    jobsQueued() {
      this.count++;
    },
  };
  const codec = new JwtTokenCodec(Buffer.from('k'.repeat(32)));
  const hasher = new BcryptPasswordHasher(4);
  const keys = { generate: async () => ({ publicKeyPem: 'PUBLIC', privateKeyPem: 'PRIVATE' }) };
  const destinations = { refuse: null as string | null, check: async () => destinations.refuse };
  const notifier = new ScriptedNotifier();
  const federation = new ScriptedFederation();
  const problems = new RecordedProblems();
  const urls = new Urls(KIT_L2);
  const deliveries = new Deliveries(store.activities, store.users, federation, urls);
  const issuer = new TokenIssuer(codec, store.issuedTokens, clock, ids, KIT_L2);
  const authenticate = new AuthenticateToken(codec, store.revocations, clock, KIT_L2);
  const writer = new RevocationWriter(store.revocations, signals, clock, KIT_L2);
  const throttle = memoryLoginThrottle({ perUsername: 3, perAddress: 100 });
  const passwords = new PasswordCheck(store.users, hasher, throttle);
  // The kit's users have fake keys: activities are "signed" by passing the document through unchanged.
  const signer: ActivitySigner = { sign: async (document) => document };
  const publish = new PublishActivity(store.activities, signer, clock, urls, signals);
  const assetWrites = new RateLimiterBudget(
    new RateLimiterMemory({ keyPrefix: 'w', points: 1000, duration: 60 }),
  );
  return {
    clock,
    ids,
    store,
    codec,
    signals,
    destinations,
    notifier,
    issuer,
    writer,
    assetWrites,
    passwords,
    register: new RegisterUser(
      store.users,
      hasher,
      keys,
      issuer,
      clock,
      new RateLimiterBudget(
        new RateLimiterMemory({ keyPrefix: 'r', points: KIT_REGISTRATIONS_PER_ADDRESS, duration: 3600 }),
      ),
    ),
    login: new IssueToken(passwords, issuer, store.users, writer),
    authenticate,
    verify: new VerifyToken(authenticate),
    logout: new RevokeToken(authenticate, store.issuedTokens, writer, clock),
    attach: new AttachRenderer(
      issuer,
      store.attachments,
      destinations,
      authenticate,
      writer,
      clock,
      store.issuedTokens,
      assetWrites,
    ),
    listRenderers: new ListRenderers(store.attachments),
    detach: new DetachRenderer(store.issuedTokens, store.attachments, writer, signals, clock),
    cleanup: new CleanupRevocations(store.revocations, store.issuedTokens, clock),
    changePassword: new ChangePassword(
      passwords,
      hasher,
      store.users,
      store.issuedTokens,
      writer,
      signals,
      clock,
    ),
    listSessions: new ListSessions(store.issuedTokens, authenticate, clock),
    revokeSession: new RevokeSession(store.issuedTokens, authenticate, writer, clock),
    deleteAccount: new DeleteAccount(
      passwords,
      store.assets,
      store.activities,
      store.issuedTokens,
      store.accountRemoval,
      writer,
      signer,
      signals,
      clock,
      urls,
    ),
    registerAsset: new RegisterAsset(store.assets, store.users, publish, assetWrites),
    deleteAsset: new DeleteAsset(store.assets, store.users, publish, assetWrites),
    federation,
    problems,
    urls,
    deliver: new JobRunner(
      store.jobs,
      {
        revocation_notice: (notice) => notifier.notify(notice),
        activity_delivery: (delivery) => deliveries.activity(delivery),
        document_delivery: (delivery) => deliveries.document(delivery),
      },
      clock,
      ids,
      DEFAULT_RETRY_POLICY,
      problems,
      DEFAULT_RUNNER_LIMITS,
    ),
  };
}
