import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { ASSERTION_REPLAY_WINDOW_SECONDS } from '../../domain/client-authentication.js';
import { CounterAssertionReplays } from './counter-assertion-replays.js';
import { RateLimiterBudget } from './rate-limiter-budget.js';
import { RateLimiterFailureLimit } from './rate-limiter-failure-limit.js';
import { RateLimiterLoginThrottle } from './rate-limiter-login-throttle.js';

/**
 * Where the counters live: next to the rest of the data, so every process on the store shares them. Each store
 * driver provides one (adapters/persistence/store-driver.ts: RateLimitCounters).
 */
export interface CounterStore {
  /** A limiter of `points` per `duration` seconds whose keys start with `keyPrefix` (every limit shares one table). */
  limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract;
  /** Forgets counters whose window ended before `now`; nothing where the store expires them itself. */
  purgeExpired(now: Date): Promise<void>;
}

export interface LoginLimits {
  readonly maxFailuresPerUsername: number;
  /** Per IPv4 address or IPv6 /64. */
  readonly maxFailuresPerAddress: number;
  /** Per IPv6 /56 (one home) and /48 (one site). */
  readonly maxFailuresPer56: number;
  readonly maxFailuresPer48: number;
  readonly windowSeconds: number;
}

/** The budgets of expensive or signed actions (issue 16): per client address and per user. */
export interface ActionLimits {
  readonly registrationsPerAddress: number;
  readonly registrationWindowSeconds: number;
  readonly assetWritesPerUser: number;
  readonly assetWriteWindowSeconds: number;
  /** Per minute. */
  readonly passkeyChallengesPerAddress: number;
  /** Per day. */
  readonly appCodeFailuresPerUser: number;
}

/** RFC 7662 §2.1: introspections answered inactive, per client address. */
export interface IntrospectionLimits {
  readonly maxFailuresPerAddress: number;
  readonly windowSeconds: number;
}

/** The Follow budgets of the inbox (issue 23): per remote actor and per remote origin, over one window. */
export interface FollowBudgets {
  readonly followsPerActor: number;
  readonly followsPerOrigin: number;
  readonly followWindowSeconds: number;
}

/** What one user can make L2 send and fetch (API.md §4.3, issue 37), per hour. */
export interface PeopleLimits {
  /** Follow requests accepted or rejected, followers removed, actors blocked or unblocked: each queues a delivery. */
  readonly followerActionsPerUser: number;
  /** Requests made to resolve an actor the user named (a WebFinger request, an actor fetch). */
  readonly lookupsPerUser: number;
}

/** The window of the per-user budgets of API.md §4.3. */
export const PEOPLE_WINDOW_SECONDS = 3600;

export interface RateLimits {
  readonly loginThrottle: RateLimiterLoginThrottle;
  /** Introspections answered inactive per client address: no scanning for live tokens. */
  readonly introspectionFailures: RateLimiterFailureLimit;
  /** Registrations per client address: each costs a bcrypt hash and an RSA key generation. */
  readonly registrations: RateLimiterBudget;
  /** Asset writes per user: each appends a signed activity delivered to every follower. */
  readonly assetWrites: RateLimiterBudget;
  /** Passkey sign-in challenges per client address: each is a store write before anyone is known. */
  readonly passkeyChallenges: RateLimiterBudget;
  /** Wrong authenticator-app codes per account and day: six digits must not be guessable at the login limits' pace. */
  readonly appCodeFailures: RateLimiterFailureLimit;
  /** Follows per remote actor: each costs a fetch of the actor and a write. */
  readonly followsPerActor: RateLimiterBudget;
  /** Follows per remote origin, all its actors together. */
  readonly followsPerOrigin: RateLimiterBudget;
  /** Follower actions per user (accept, reject, remove, block, unblock): each queues one delivery. */
  readonly followerActions: RateLimiterBudget;
  /** Outbound requests per user to resolve actors they name (a block, an alias, a move target). */
  readonly lookups: RateLimiterBudget;
  /** The jti of every client assertion accepted, for the replay window (API.md §2.5): replays are refused. */
  readonly assertionReplays: CounterAssertionReplays;
  /** Forgets counters whose window is over (stored counters only); run with the hourly clean-up. */
  purgeExpired(now: Date): Promise<void>;
}

/**
 * Every rate limit on the given store: the failed-login limits of API.md §1 (by username, and by client address
 * with the IPv6 /56 and /48 around it), registrations per address, asset writes per user and the inbox's Follows
 * per remote actor and origin, inactive introspections per address, and the per-user follower actions and lookups. They share one table (or collection), told apart by the key prefix.
 */
export function rateLimits(
  store: CounterStore,
  login: LoginLimits,
  actions: ActionLimits,
  follows: FollowBudgets,
  introspection: IntrospectionLimits,
  people: PeopleLimits,
): RateLimits {
  return {
    loginThrottle: new RateLimiterLoginThrottle(
      store.limiter('login_user', login.maxFailuresPerUsername, login.windowSeconds),
      store.limiter('login_addr', login.maxFailuresPerAddress, login.windowSeconds),
      {
        slash56: store.limiter('login_net56', login.maxFailuresPer56, login.windowSeconds),
        slash48: store.limiter('login_net48', login.maxFailuresPer48, login.windowSeconds),
      },
    ),
    introspectionFailures: new RateLimiterFailureLimit(
      store.limiter('introspect_addr', introspection.maxFailuresPerAddress, introspection.windowSeconds),
      introspection.maxFailuresPerAddress,
    ),
    registrations: new RateLimiterBudget(
      store.limiter('register_addr', actions.registrationsPerAddress, actions.registrationWindowSeconds),
    ),
    assetWrites: new RateLimiterBudget(
      store.limiter('asset_write_user', actions.assetWritesPerUser, actions.assetWriteWindowSeconds),
    ),
    passkeyChallenges: new RateLimiterBudget(
      store.limiter('passkey_challenge_addr', actions.passkeyChallengesPerAddress, 60),
    ),
    appCodeFailures: new RateLimiterFailureLimit(
      store.limiter('app_code_fail_user', actions.appCodeFailuresPerUser, 86_400),
      actions.appCodeFailuresPerUser,
    ),
    followsPerActor: new RateLimiterBudget(
      store.limiter('follow_actor', follows.followsPerActor, follows.followWindowSeconds),
    ),
    followsPerOrigin: new RateLimiterBudget(
      store.limiter('follow_origin', follows.followsPerOrigin, follows.followWindowSeconds),
    ),
    // Keys are `follower-actions:<user>` and `lookups:<user>` (rate-limiter-flexible adds the colon).
    followerActions: new RateLimiterBudget(
      store.limiter('follower-actions', people.followerActionsPerUser, PEOPLE_WINDOW_SECONDS),
    ),
    lookups: new RateLimiterBudget(store.limiter('lookups', people.lookupsPerUser, PEOPLE_WINDOW_SECONDS)),
    assertionReplays: new CounterAssertionReplays(
      store.limiter('client_assertion_jti', 1, ASSERTION_REPLAY_WINDOW_SECONDS),
    ),
    purgeExpired: (now) => store.purgeExpired(now),
  };
}
