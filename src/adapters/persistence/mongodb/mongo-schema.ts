import type { Binary, Collection, Db, IndexDescription } from 'mongodb';
import { AUTHORIZATION_CODE_RETENTION_SECONDS } from '../../../domain/oauth.js';
import {
  ACTOR_BLOCK_INDEXES,
  DOMAIN_RULE_INDEXES,
  FOLLOW_REQUEST_INDEXES,
  FOLLOWER_INDEXES,
} from './mongo-federation-indexes.js';
import type { ActivityDocument } from './codecs/activity-documents.js';
import type { ActorBlockDocument } from './codecs/actor-block-documents.js';
import type { StoredAssetDocument } from './codecs/asset-documents.js';
import type {
  FollowRequestDocument,
  DomainRuleDocument,
  FollowerDocument,
  InstanceKeyDocument,
  RemoteKeyDocument,
} from './codecs/federation-documents.js';
import type { StoredJobDocument } from './codecs/job-documents.js';
import type {
  AccountEventDocument,
  AuthChallengeDocument,
  PasskeyDocument,
  RecoveryCodeDocument,
  TotpEnrolmentDocument,
  TotpFactorDocument,
} from './codecs/security-documents.js';
import type {
  AttachmentDocument,
  IssuedTokenDocument,
  RevocationDocument,
} from './codecs/token-documents.js';
import type { StoredUserDocument } from './codecs/user-documents.js';

/**
 * A "Sign in with L2" code, keyed by its SHA-256 hex (never the code): `record` is the JSON of
 * authorization-code-record.ts, `usedAt` the compare-and-set of its one exchange.
 */
export interface AuthorizationCodeDocument {
  _id: string;
  record: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A lane backed off (JobQueue.postponeLane), keyed by the lane: no job of it is claimed before `until`. */
export interface LaneBackoffDocument {
  _id: string;
  until: Date;
}

/** How many live assets carry a tag, keyed by its tag key; changed in the transaction of each asset write. */
export interface TagCountDocument {
  _id: string;
  liveAssets: number;
}

/**
 * A kept hash of the transparency log (docs/adr/0013): `_id` is tlogHashId(level, index) — position `index` of tile
 * level `level`, level 0 holding every leaf hash — so that a tile, or any run of one level, is one range of `_id`.
 */
export interface TlogHashDocument {
  _id: number;
  hash: Binary;
}

/** Positions of one level apart in `_id`: 2^50 (a log of 2^50 entries would be a thousand times any foreseeable). */
const TLOG_LEVEL_SPAN = 2 ** 50;

/** The `_id` of the hash at `index` of tile level `level` (levels 0–6 cover every tree of fewer than 2^50 entries). */
export const tlogHashId = (level: number, index: number): number => level * TLOG_LEVEL_SPAN + index;

/**
 * The transparency log's one state document, `_id` "state": the tree's size and right edge (changed by every
 * append, in its transaction), the origin pinned at the first start and the latest signed checkpoint. Made by
 * ensureTransparencyLog — from the history already stored on a database written before it existed.
 */
export interface TlogStateDocument {
  _id: 'state';
  size: number;
  edge: Binary;
  origin: string | null;
  checkpoint: { size: number; note: string } | null;
}

/** A counter, changed only inside the transaction of the write it counts; or a mark of a one-time schema step. */
export interface CounterDocument {
  _id: CounterName | 'user_counts_built' | 'tag_index_built';
  value: number;
}

/**
 * One user's totals, keyed by username, each changed in the transaction of the write it counts (as SQLite's
 * `user_counts`), so that an outbox's totalItems, an owner's asset total and a follower count are one read by `_id`.
 * A field is absent until the first write that counts it.
 */
export interface UserCountDocument {
  _id: string;
  /** Activities in the log whose actor is the user. */
  activities?: number;
  /** Live assets the user owns. */
  liveAssets?: number;
  /** Remote actors following the user. */
  followers?: number;
}

export type UserCountField = 'activities' | 'liveAssets' | 'followers';

/**
 * `users`: the highest user position handed out. `live_users`: how many accounts are not deleted. `asset_seq`: the highest asset position handed out. `live_assets`: how many assets are not deleted.
 * `activities`: the next idx of the activity log, which is also how many activities there are. `follower_seq`: the
 * highest follow position handed out. `follow_request_seq`, `actor_block_seq`: those of follow requests and blocks.
 */
export const COUNTERS = [
  'users',
  'live_users',
  'asset_seq',
  'live_assets',
  'activities',
  'follower_seq',
  'follow_request_seq',
  'actor_block_seq',
] as const;
export type CounterName = (typeof COUNTERS)[number];

/** The collections of one L2 database, typed. */
export interface MongoCollections {
  readonly users: Collection<StoredUserDocument>;
  readonly issuedTokens: Collection<IssuedTokenDocument>;
  readonly revocations: Collection<RevocationDocument>;
  readonly attachments: Collection<AttachmentDocument>;
  readonly authorizationCodes: Collection<AuthorizationCodeDocument>;
  readonly jobs: Collection<StoredJobDocument>;
  readonly laneBackoffs: Collection<LaneBackoffDocument>;
  readonly assets: Collection<StoredAssetDocument>;
  readonly activities: Collection<ActivityDocument>;
  readonly followers: Collection<FollowerDocument>;
  readonly followRequests: Collection<FollowRequestDocument>;
  readonly actorBlocks: Collection<ActorBlockDocument>;
  readonly domainRules: Collection<DomainRuleDocument>;
  readonly remoteKeys: Collection<RemoteKeyDocument>;
  readonly instanceKeys: Collection<InstanceKeyDocument>;
  readonly counters: Collection<CounterDocument>;
  readonly userCounts: Collection<UserCountDocument>;
  readonly tagCounts: Collection<TagCountDocument>;
  readonly tlogHashes: Collection<TlogHashDocument>;
  readonly tlogState: Collection<TlogStateDocument>;
  readonly totpFactors: Collection<TotpFactorDocument>;
  readonly totpEnrolments: Collection<TotpEnrolmentDocument>;
  readonly recoveryCodes: Collection<RecoveryCodeDocument>;
  readonly passkeys: Collection<PasskeyDocument>;
  readonly authChallenges: Collection<AuthChallengeDocument>;
  readonly accountEvents: Collection<AccountEventDocument>;
}

export const COLLECTION_NAMES = {
  users: 'users',
  issuedTokens: 'issued_tokens',
  revocations: 'revocations',
  attachments: 'renderer_attachments',
  authorizationCodes: 'authorization_codes',
  jobs: 'jobs',
  laneBackoffs: 'lane_backoffs',
  assets: 'assets',
  activities: 'activities',
  followers: 'followers',
  followRequests: 'follow_requests',
  actorBlocks: 'actor_blocks',
  domainRules: 'domain_rules',
  remoteKeys: 'remote_keys',
  instanceKeys: 'instance_keys',
  counters: 'counters',
  userCounts: 'user_counts',
  tagCounts: 'tag_counts',
  tlogHashes: 'tlog_hashes',
  tlogState: 'tlog_state',
  totpFactors: 'totp_factors',
  totpEnrolments: 'totp_enrolments',
  recoveryCodes: 'recovery_codes',
  passkeys: 'passkeys',
  authChallenges: 'auth_challenges',
  accountEvents: 'account_events',
} as const satisfies Record<keyof MongoCollections, string>;

export function collectionsOf(db: Db): MongoCollections {
  return {
    users: db.collection<StoredUserDocument>(COLLECTION_NAMES.users),
    issuedTokens: db.collection<IssuedTokenDocument>(COLLECTION_NAMES.issuedTokens),
    revocations: db.collection<RevocationDocument>(COLLECTION_NAMES.revocations),
    attachments: db.collection<AttachmentDocument>(COLLECTION_NAMES.attachments),
    authorizationCodes: db.collection<AuthorizationCodeDocument>(COLLECTION_NAMES.authorizationCodes),
    jobs: db.collection<StoredJobDocument>(COLLECTION_NAMES.jobs),
    laneBackoffs: db.collection<LaneBackoffDocument>(COLLECTION_NAMES.laneBackoffs),
    assets: db.collection<StoredAssetDocument>(COLLECTION_NAMES.assets),
    activities: db.collection<ActivityDocument>(COLLECTION_NAMES.activities),
    followers: db.collection<FollowerDocument>(COLLECTION_NAMES.followers),
    followRequests: db.collection<FollowRequestDocument>(COLLECTION_NAMES.followRequests),
    actorBlocks: db.collection<ActorBlockDocument>(COLLECTION_NAMES.actorBlocks),
    domainRules: db.collection<DomainRuleDocument>(COLLECTION_NAMES.domainRules),
    remoteKeys: db.collection<RemoteKeyDocument>(COLLECTION_NAMES.remoteKeys),
    instanceKeys: db.collection<InstanceKeyDocument>(COLLECTION_NAMES.instanceKeys),
    counters: db.collection<CounterDocument>(COLLECTION_NAMES.counters),
    userCounts: db.collection<UserCountDocument>(COLLECTION_NAMES.userCounts),
    tagCounts: db.collection<TagCountDocument>(COLLECTION_NAMES.tagCounts),
    tlogHashes: db.collection<TlogHashDocument>(COLLECTION_NAMES.tlogHashes),
    tlogState: db.collection<TlogStateDocument>(COLLECTION_NAMES.tlogState),
    totpFactors: db.collection<TotpFactorDocument>(COLLECTION_NAMES.totpFactors),
    totpEnrolments: db.collection<TotpEnrolmentDocument>(COLLECTION_NAMES.totpEnrolments),
    recoveryCodes: db.collection<RecoveryCodeDocument>(COLLECTION_NAMES.recoveryCodes),
    passkeys: db.collection<PasskeyDocument>(COLLECTION_NAMES.passkeys),
    authChallenges: db.collection<AuthChallengeDocument>(COLLECTION_NAMES.authChallenges),
    accountEvents: db.collection<AccountEventDocument>(COLLECTION_NAMES.accountEvents),
  };
}

/**
 * How long after `expiresAt` the TTL monitor may remove a revocation record. Not 0: the monitor runs on the
 * database server's clock, verify checks expiry on L2's, and a server clock ahead of L2's would otherwise drop
 * records of tokens L2 still takes for unexpired — accepting revoked tokens. The hourly cleanup (deleteExpired,
 * on L2's clock) removes them at expiry anyway; the TTL index is only the backstop.
 */
export const REVOCATION_TTL_MARGIN_SECONDS = 3600;

/** How long after `expiresAt` the TTL monitor may remove a challenge (reads refuse it at expiry already). */
export const CHALLENGE_TTL_MARGIN_SECONDS = 600;

/** The index of a tag's live assets, which a tag's seeks name as their hint. */
export const ASSETS_LIVE_BY_TAG = 'assets_live_by_tag';

/** The keys of `jobs_by_lane_run_at`, which a claim's per-lane queries name as their hint. */
export const JOBS_BY_LANE_RUN_AT = { lane: 1, state: 1, runAt: 1, _id: 1 } as const;

/**
 * Every secondary index, by collection. `_id` is the unique key of users (username), issued tokens and revocations
 * (token hash), assets (name, compared byte for byte, so case-sensitively) and activities (idx); usernames are
 * lower-cased by the domain before they reach the store, so the binary `_id` is case-insensitive uniqueness and no
 * collation is needed. Names are fixed, so creating them again is a no-op; a different TTL is changed in place,
 * and any other change means a new name and dropping the old (see ensureIndexes).
 */
export const INDEXES: Readonly<Record<keyof MongoCollections, readonly IndexDescription[]>> = {
  users: [
    { key: { seq: 1 }, name: 'users_by_seq', unique: true },
    { key: { deletedAt: 1, seq: 1 }, name: 'users_live_by_seq' },
  ],
  issuedTokens: [
    { key: { sessionJti: 1, expiresAt: 1 }, name: 'issued_tokens_by_session' },
    { key: { username: 1, expiresAt: 1 }, name: 'issued_tokens_by_user' },
    { key: { username: 1, l1Server: 1, expiresAt: 1 }, name: 'issued_tokens_by_user_server' },
    { key: { expiresAt: 1 }, name: 'issued_tokens_by_expiry' },
  ],
  // The TTL monitor (a pass about every 60 s, on the primary) removes a record once `expiresAt` plus the margin
  // has passed on the server's clock; `expiresAt` is always a BSON Date (other types never expire).
  revocations: [
    { key: { expiresAt: 1 }, name: 'revocations_ttl', expireAfterSeconds: REVOCATION_TTL_MARGIN_SECONDS },
  ],
  attachments: [{ key: { username: 1, l1Server: 1 }, name: 'attachments_by_user_server', unique: true }],
  // The hourly clean-up removes codes a day after they expire (deleteExpired); the TTL monitor is the backstop.
  authorizationCodes: [
    {
      key: { expiresAt: 1 },
      name: 'authorization_codes_ttl',
      expireAfterSeconds: AUTHORIZATION_CODE_RETENTION_SECONDS,
    },
  ],
  jobs: [
    { key: { state: 1, runAt: 1, _id: 1 }, name: 'jobs_by_state_run_at' },
    // A claim's distinct lanes and each lane's first due job, in claim order (runAt, then _id). It replaces
    // `jobs_by_lane` (lane, state, runAt), of which it is an extension: a database made before keeps that one
    // until an operator drops it (db.jobs.dropIndex("jobs_by_lane")); nothing needs it any more.
    { key: JOBS_BY_LANE_RUN_AT, name: 'jobs_by_lane_run_at' },
    // At most one pending job per key (a repeated Follow replaces its Accept). Only documents with the field are
    // in it: jobs without a key never have one.
    {
      key: { replaceKey: 1 },
      name: 'jobs_pending_by_replace_key',
      unique: true,
      partialFilterExpression: { state: 'pending', replaceKey: { $exists: true } },
    },
    // Pending jobs of one kind in one lane, counted up to a cap (Accepts waiting per host).
    {
      key: { lane: 1, kind: 1 },
      name: 'jobs_pending_by_lane_kind',
      partialFilterExpression: { state: 'pending' },
    },
  ],
  // Back-offs over are deleted by the next postponeLane, found through this.
  laneBackoffs: [{ key: { until: 1 }, name: 'lane_backoffs_by_until' }],
  assets: [
    { key: { seq: 1 }, name: 'assets_by_seq', unique: true },
    // Lists show live assets (deletedAt of type null) in seq order: one value of deletedAt, then a range on seq.
    { key: { deletedAt: 1, seq: 1 }, name: 'assets_live_by_seq' },
    { key: { owner: 1, deletedAt: 1, seq: 1 }, name: 'assets_live_by_owner' },
    // A tag's page (AssetFilter.tag): one key of the array (multikey), one value of deletedAt, then a range on seq —
    // seq is no array, so the index gives the order and the bounds stay tight.
    { key: { tagKeys: 1, deletedAt: 1, seq: 1 }, name: ASSETS_LIVE_BY_TAG },
  ],
  activities: [{ key: { actor: 1, _id: 1 }, name: 'activities_by_actor' }],
  followers: FOLLOWER_INDEXES,
  domainRules: DOMAIN_RULE_INDEXES,
  followRequests: FOLLOW_REQUEST_INDEXES,
  actorBlocks: ACTOR_BLOCK_INDEXES,
  remoteKeys: [],
  instanceKeys: [],
  counters: [],
  userCounts: [],
  tagCounts: [],
  // Keyed by `_id` alone (tlogHashId): ranges of it are tiles.
  tlogHashes: [],
  tlogState: [],
  totpFactors: [],
  totpEnrolments: [],
  recoveryCodes: [{ key: { username: 1 }, name: 'recovery_codes_by_user' }],
  passkeys: [{ key: { username: 1, createdAt: 1 }, name: 'passkeys_by_user' }],
  // The TTL monitor is a backstop for challenges nobody used (every read checks expiresAt on L2's clock).
  authChallenges: [
    { key: { expiresAt: 1 }, name: 'auth_challenges_ttl', expireAfterSeconds: CHALLENGE_TTL_MARGIN_SECONDS },
    { key: { username: 1, kind: 1 }, name: 'auth_challenges_by_user' },
  ],
  accountEvents: [{ key: { username: 1, at: -1, _id: -1 }, name: 'account_events_by_user' }],
};
