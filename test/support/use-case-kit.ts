import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { DeliveryOutcome } from '../../src/application/ports/delivery-outcome.js';
import type { L1Notifier } from '../../src/application/ports/l1-notifier.js';
import type {
  ClientDocumentSource,
  FetchedClientDocument,
} from '../../src/application/ports/client-document-source.js';
import { JoseClientAssertionSignatures } from '../../src/adapters/crypto/jose-client-assertion-signatures.js';
import type { RevocationNotice } from '../../src/domain/revocation.js';
import type {
  ActorLookup,
  FederationClient,
  NamedActorLookup,
  WebFingerLookup,
} from '../../src/application/ports/federation-client.js';
import type {
  ActivitySigner,
  JsonLdDocument,
  SigningKey,
} from '../../src/application/ports/activity-signer.js';
import { DEFAULT_RETRY_POLICY, DEFAULT_RUNNER_LIMITS } from '../../src/application/use-cases.js';
import { openMemoryStore } from '../../src/adapters/persistence/memory/memory-driver.js';
import { openMemoryPersistence } from '../../src/adapters/persistence/memory/open-memory-persistence.js';
import { RateLimiterLoginThrottle } from '../../src/adapters/throttle/rate-limiter-login-throttle.js';
import { composeL2 } from '../../src/composition/compose.js';
import { loadConfig, type Config } from '../../src/composition/config.js';
import { FixedClock, SequentialIds } from './fixed-clock.js';
import { writeIdTokenKey } from './id-token-key.js';
import { writeNoticeKey } from './notice-key.js';
import { writeTestTlogKey } from './tlog-test-key.js';

export const KIT_L2 = 'https://l2.example';
/** The client address kit registrations come from. */
export const KIT_ADDRESS = '192.0.2.1';
/** Registrations per address and window in the kit. */
export const KIT_REGISTRATIONS_PER_ADDRESS = 5;
/** Failed logins (or second steps) per username in the kit's window: a success clears them. */
export const KIT_LOGIN_FAILURES_PER_USERNAME = 3;
/** Introspected tokens that do not verify, per address and window, in the kit. */
export const KIT_INTROSPECTION_FAILURES_PER_ADDRESS = 3;
/** Passkey sign-in challenges per address and window in the kit. */
export const KIT_PASSKEY_CHALLENGES_PER_ADDRESS = 3;
/**
 * Lookups per user and hour in the kit (LOOKUPS_PER_USER): enough for five handles (two requests each) and a little
 * more, so that an `also_known_as` of five entries resolves, and few enough to run out in a test.
 */
export const KIT_LOOKUPS_PER_USER = 12;
/** Follower actions per user and hour in the kit (FOLLOWER_ACTIONS_PER_USER). */
export const KIT_FOLLOWER_ACTIONS_PER_USER = 10;
/** Wrong authenticator-app codes per account and day in the kit: below the login limit, so both can be seen. */
export const KIT_APP_CODE_FAILURES_PER_DAY = 1;

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

/** What a peer's actor document says, as a use-case test scripts it: `inbox` null for a document without one. */
export interface ScriptedActor {
  readonly id: string;
  readonly inbox: string | null;
  readonly sharedInbox: string | null;
  /** Its `type` (Person when not given): another type is no actor. */
  readonly type?: string;
  readonly alsoKnownAs?: readonly string[];
  readonly movedTo?: string | null;
}

const ACTOR_TYPES = new Set(['Person', 'Service', 'Application', 'Group', 'Organization']);

/**
 * A federation client whose answers the test scripts; it records every delivery it was asked to make. It answers as
 * the real client would for what it is scripted with (test/unit/scripted-federation.test.ts holds it to the same
 * contract): an actor document that is somebody else's, or has no inbox, is refused.
 */
export class ScriptedFederation implements FederationClient {
  readonly delivered: { inbox: string; document: JsonLdDocument; key: SigningKey }[] = [];
  /** Answers by inbox; `delivered` when none is scripted. */
  outcomes = new Map<string, DeliveryOutcome[]>();
  /** Actor documents by the URL they are served at; any other actor is gone (a 404 or 410). */
  actors = new Map<string, ScriptedActor>();
  /** Actors whose server cannot answer now (a 5xx, a timeout). */
  readonly unavailable = new Set<string>();
  /** WebFinger accounts by `user@host`: the `self` link each answers with (null: none of ActivityPub). */
  accounts = new Map<string, string | null>();
  /**
   * Every request a lookup made, in order: `webfinger acct:<user>@<host>` and `actor <url>` (lookUpActor) — what a
   * test counts to see that nothing was asked.
   */
  readonly requests: string[] = [];

  async deliver(inbox: string, document: JsonLdDocument, key: SigningKey): Promise<DeliveryOutcome> {
    this.delivered.push({ inbox, document, key });
    return this.outcomes.get(inbox)?.shift() ?? { kind: 'delivered' };
  }

  async fetchActor(id: string): Promise<ActorLookup> {
    if (this.unavailable.has(id)) return { ok: false, retryable: true, reason: 'answered 503' };
    const actor = this.actors.get(id);
    if (!actor) return { ok: false, retryable: false, reason: 'no such actor' };
    if (actor.id !== id) return { ok: false, retryable: false, reason: 'the document is another actor' };
    if (actor.inbox === null) return { ok: false, retryable: false, reason: 'the actor has no inbox' };
    return { ok: true, actor: { id, inbox: actor.inbox, sharedInbox: actor.sharedInbox } };
  }

  /** As fetchActor, never cached (the fake keeps nothing), with the type checked and alsoKnownAs and movedTo read. */
  async lookUpActor(id: string, _options: { readonly fresh: true }): Promise<NamedActorLookup> {
    this.requests.push(`actor ${id}`);
    const actor = this.actors.get(id);
    if (actor && !ACTOR_TYPES.has(actor.type ?? 'Person'))
      return { ok: false, retryable: false, reason: 'the document is not an actor' };
    const found = await this.fetchActor(id);
    if (!found.ok) return found;
    return {
      ok: true,
      actor: { ...found.actor, alsoKnownAs: actor?.alsoKnownAs ?? [], movedTo: actor?.movedTo ?? null },
    };
  }

  async webfinger(user: string, host: string): Promise<WebFingerLookup> {
    this.requests.push(`webfinger acct:${user}@${host}`);
    const self = this.accounts.get(`${user}@${host}`);
    if (self === undefined) return { ok: false, retryable: false, reason: 'no such account' };
    if (self === null) return { ok: false, retryable: false, reason: 'the account has no ActivityPub actor' };
    return { ok: true, self };
  }
}

/**
 * Client ID Metadata Documents as the kit's clients publish them (API.md §2.5): a URL scripted here answers that;
 * any other is a 404 — not a document, an L1 server URL client — so that no use-case test reaches the network.
 */
export class ScriptedClientDocuments implements ClientDocumentSource {
  readonly answers = new Map<string, FetchedClientDocument>();

  async fetchJson(url: string): Promise<FetchedClientDocument> {
    return this.answers.get(url) ?? { kind: 'absent', cacheControl: null };
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

/** The kit's configuration, as the service reads it from its environment: the limits the kit's tests count on. */
let kitConfig: Config | null = null;
function configOfKit(): Config {
  if (kitConfig) return kitConfig;
  const secrets = mkdtempSync(join(tmpdir(), 'l2-kit-'));
  writeFileSync(join(secrets, 'jwt_secret'), 'k'.repeat(32));
  writeNoticeKey(secrets);
  writeIdTokenKey(secrets);
  writeTestTlogKey(secrets);
  kitConfig = loadConfig({
    NODE_ENV: 'test',
    SECRETS_DIR: secrets,
    STORE: 'memory:',
    BCRYPT_COST: '4',
    PUBLIC_URL: KIT_L2,
    LOG_LEVEL: 'silent',
    LOGIN_MAX_FAILURES_PER_USERNAME: String(KIT_LOGIN_FAILURES_PER_USERNAME),
    LOGIN_MAX_FAILURES_PER_ADDRESS: '100',
    REGISTRATIONS_PER_ADDRESS: String(KIT_REGISTRATIONS_PER_ADDRESS),
    ASSET_WRITES_PER_USER: '1000',
    INTROSPECTION_MAX_FAILURES_PER_ADDRESS: String(KIT_INTROSPECTION_FAILURES_PER_ADDRESS),
    PASSKEY_CHALLENGES_PER_ADDRESS: String(KIT_PASSKEY_CHALLENGES_PER_ADDRESS),
    APP_CODE_FAILURES_PER_DAY: String(KIT_APP_CODE_FAILURES_PER_DAY),
    LOOKUPS_PER_USER: String(KIT_LOOKUPS_PER_USER),
    FOLLOWER_ACTIONS_PER_USER: String(KIT_FOLLOWER_ACTIONS_PER_USER),
  });
  return kitConfig;
}

/**
 * The service as the composition root builds it — every use-case and service made the production way — on the
 * memory store, with a fixed clock, sequential ids, a fake key generator and scripted peers (bcrypt at cost 4,
 * real HS256), so use-case tests are fast and time moves only when they say.
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
  const destinations = { refuse: null as string | null, check: async () => destinations.refuse };
  const notifier = new ScriptedNotifier();
  const federation = new ScriptedFederation();
  const problems = new RecordedProblems();
  const clientDocuments = new ScriptedClientDocuments();
  // The kit's users have fake keys: activities are "signed" by passing the document through unchanged.
  const signer: ActivitySigner = { sign: async (document) => document };
  const l2 = composeL2(configOfKit(), openMemoryStore(store), {
    clock: () => clock,
    ids: () => ids,
    keyPairs: () => ({ generate: async () => ({ publicKeyPem: 'PUBLIC', privateKeyPem: 'PRIVATE' }) }),
    activitySigner: () => signer,
    destinations: () => destinations,
    l1Notifier: () => notifier,
    federation: () => federation,
    workSignal: () => signals,
    jobs: () => ({ retryPolicy: DEFAULT_RETRY_POLICY, limits: DEFAULT_RUNNER_LIMITS, problems }),
    oauthClients: (p) => ({
      documents: clientDocuments,
      signatures: new JoseClientAssertionSignatures(),
      replays: p.rateLimits.assertionReplays,
      allowLoopback: false,
    }),
  });
  const { services, useCases } = l2;
  return {
    l2,
    /** Every use-case by name, as the edges call them. */
    useCases,
    clock,
    ids,
    store,
    codec: l2.tokenCodec,
    signals,
    destinations,
    notifier,
    clientDocuments,
    issuer: services.tokenIssuer,
    writer: services.revocationWriter,
    assetWrites: l2.assetWrites,
    passwords: services.passwordCheck,
    register: useCases.registerUser,
    login: useCases.issueToken,
    authenticate: services.authenticateToken,
    verify: useCases.verifyToken,
    logout: useCases.revokeToken,
    attach: useCases.attachRenderer,
    listRenderers: useCases.listRenderers,
    detach: useCases.detachRenderer,
    cleanup: useCases.cleanupRevocations,
    changePassword: useCases.changePassword,
    listSessions: useCases.listSessions,
    revokeSession: useCases.revokeSession,
    deleteAccount: useCases.deleteAccount,
    registerAsset: useCases.registerAsset,
    updateAsset: useCases.updateAsset,
    deleteAsset: useCases.deleteAsset,
    updateProfile: useCases.updateProfile,
    federation,
    /** Resolves the actors people name (blocks, aliases, move targets) through `federation`. */
    actorResolution: services.actorResolution,
    problems,
    urls: l2.urls,
    deliver: services.jobRunner,
  };
}
