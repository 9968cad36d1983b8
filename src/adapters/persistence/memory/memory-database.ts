import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { ProfileChange } from '../../../application/ports/user-repository.js';
import type { Activity } from '../../../domain/activity.js';
import type { Asset } from '../../../domain/asset.js';
import type { DomainRule } from '../../../domain/domain-rules.js';
import { deliveryInbox, type Follower } from '../../../domain/follower.js';
import type { FollowRequest } from '../../../domain/follow-request.js';
import type { RemoteKey } from '../../../application/ports/remote-key-store.js';
import { profileUpdateJob, revocationNoticeJob } from '../../../domain/jobs.js';
import type { IssuedToken, Revocation } from '../../../domain/revocation.js';
import type { User } from '../../../domain/user.js';
import { copyOfProfile } from '../stored-profile.js';
import type { InstanceKey } from '../stored-records.js';
import { MemoryActorBlocks } from './memory-actor-blocks.js';
import { MemorySecurityTables } from './memory-security-tables.js';
import { MemoryTagIndex } from './memory-tag-index.js';
import { MemoryTransparencyTree } from './memory-transparency-tree.js';

export interface StoredJob {
  readonly id: number;
  readonly kind: string;
  /** JSON text, so that a caller can neither change a queued payload nor queue what SQLite could not store. */
  readonly payload: string;
  readonly lane: string | null;
  attempts: number;
  readonly queuedAt: number;
  runAt: number;
  state: 'pending' | 'abandoned';
  leaseId: string | null;
  leaseUntil: number | null;
  lastError: string | null;
  /** See NewJob.replaceKey: at most one pending job holds each. */
  readonly replaceKey: string | null;
}

/** A user with its registration position, 1, 2, 3, … like SQLite's AUTOINCREMENT; `user` is replaced on change. */
export interface StoredUser {
  readonly position: number;
  user: User;
}

/** An asset with its registration position; `asset` is replaced (never mutated) by an update or delete. */
export interface StoredAsset {
  readonly position: number;
  asset: Asset;
}

/** An activity (position = idx) with its document held as JSON text, as SQLite holds it. */
export interface StoredActivity {
  readonly position: number;
  readonly activity: Omit<Activity, 'document'>;
  readonly document: string;
}

/** A remote actor following a local user, at its position among all follows (1, 2, 3, … like AUTOINCREMENT). */
export interface StoredFollower {
  readonly position: number;
  readonly actor: string;
  readonly inbox: string;
  readonly sharedInbox: string | null;
  readonly followId: string | null;
  readonly followedAt: number;
}

/** A follow request, at its position among all requests (as AUTOINCREMENT); renewed in place by a repeated Follow. */
export interface StoredFollowRequest {
  readonly position: number;
  request: FollowRequest;
}

export interface StoredRevocation {
  readonly tokenHash: string;
  readonly username: string;
  readonly expiresAt: number;
  readonly revokedAt: number;
}

/**
 * The tables of the in-memory store, shared by its adapters like one SQLite connection is. Every adapter method
 * runs synchronously between awaits, so each one is a transaction of its own.
 */
export class MemoryDatabase {
  readonly users = new Map<string, StoredUser>();
  /** The same users in registration order. */
  readonly usersInOrder: StoredUser[] = [];
  readonly issuedTokens = new Map<string, IssuedToken>();
  readonly revocations = new Map<string, StoredRevocation>();
  /** "Sign in with L2" codes by their hash, held as JSON text as SQLite holds them. */
  readonly authorizationCodes = new Map<string, string>();
  /** Keyed by username, then L1 server; values are epoch milliseconds. */
  readonly attachments = new Map<string, Map<string, number>>();
  readonly jobs = new Map<number, StoredJob>();
  /** Lanes backed off: until when (epoch milliseconds), as SQLite's `lane_backoffs`. */
  readonly laneBackoffs = new Map<string, number>();
  /** Keyed by name, deleted assets included. */
  readonly assets = new Map<string, StoredAsset>();
  /** The same assets in registration order. */
  readonly assetsInOrder: StoredAsset[] = [];
  /** The live assets of each tag key, in registration order. */
  readonly tags = new MemoryTagIndex();
  liveAssetCount = 0;
  /** How many of `users` are deleted accounts. */
  deletedUsers = 0;
  /** Indexed by idx. */
  readonly activities: StoredActivity[] = [];
  /** The activities as a Merkle tree: their hashes, the right edge, the origin and the latest checkpoint. */
  readonly tlog = new MemoryTransparencyTree();
  /** Keyed by local username; each user's followers in position order. */
  readonly followers = new Map<string, StoredFollower[]>();
  /** The operator's domain rules, by `${kind} ${host}`, in the order they were made. */
  readonly domainRules = new Map<string, DomainRule>();
  /** Follow requests waiting, every user's, in position order. */
  followRequests: StoredFollowRequest[] = [];
  lastFollowRequestPosition = 0;
  /** Each user's blocks of remote actors, in position order. */
  readonly actorBlocks = new MemoryActorBlocks();
  /** Every remote key fetched, by key id. */
  readonly remoteKeys = new Map<string, RemoteKey>();
  /** The service actor's key pair, with when it was made. */
  instanceKey: InstanceKey | null = null;
  /** Second factors, recovery codes, passkeys, challenges and history. */
  readonly security = new MemorySecurityTables();
  private lastJobId = 0;
  private lastFollowerPosition = 0;
  private open = true;

  /** Throws as a closed SQLite connection would, so tests of outages can use the memory store. */
  assertOpen(): void {
    if (!this.open) throw new StoreUnavailableError('The in-memory store is closed.');
  }

  close(): void {
    this.open = false;
  }

  /**
   * Records the revocations that are new and queues the notice of each that has one; returns how many were new.
   * The one way revocations are written, for logout, password changes and account deletion alike.
   */
  revoke(revocations: readonly Revocation[], now: Date): number {
    let added = 0;
    for (const { record, notice } of revocations) {
      if (this.revocations.has(record.tokenHash)) continue;
      this.revocations.set(record.tokenHash, {
        tokenHash: record.tokenHash,
        username: record.username,
        expiresAt: record.expiresAt.getTime(),
        revokedAt: now.getTime(),
      });
      added++;
      if (notice) this.insertJob(revocationNoticeJob(notice), now);
    }
    return added;
  }

  insertUser(user: User): void {
    const stored = { position: this.usersInOrder.length + 1, user };
    this.users.set(user.username, stored);
    this.usersInOrder.push(stored);
  }

  insertAsset(asset: Asset): void {
    const stored = { position: this.assetsInOrder.length + 1, asset };
    this.assets.set(asset.name, stored);
    this.assetsInOrder.push(stored);
    if (asset.deletedAt === null) this.liveAssetCount++;
    this.tags.file(stored);
  }

  /** Replaces a stored asset (an update or a delete), keeping the live count and the tag index in step. */
  replaceAsset(stored: StoredAsset, asset: Asset): void {
    if (stored.asset.deletedAt === null && asset.deletedAt !== null) this.liveAssetCount--;
    this.tags.unfile(stored);
    stored.asset = asset;
    this.tags.file(stored);
  }

  /**
   * Why `change` cannot be written now — no live user of that name, or its profile version moved — or null when it
   * can. Checked before a write's first change, as every write of this store is.
   */
  profileRefusal(change: ProfileChange): 'not_found' | 'conflict' | null {
    const stored = this.users.get(change.username);
    if (!stored || stored.user.deletedAt !== null) return 'not_found';
    return stored.user.profileVersion === change.expectedVersion ? null : 'conflict';
  }

  /**
   * Writes a profile change `profileRefusal` allowed: the profile and the next version, and one Update per distinct
   * follower inbox queued at `now` (replacing the one waiting for that inbox). The one way a profile is written.
   */
  writeProfile(change: ProfileChange, now: Date): void {
    const stored = this.users.get(change.username);
    if (!stored) throw new Error(`writeProfile: no user ${change.username}`);
    stored.user = {
      ...stored.user,
      profile: copyOfProfile(change.profile),
      profileVersion: change.expectedVersion + 1,
    };
    for (const inbox of this.deliveryInboxes(change.username))
      this.insertJob(profileUpdateJob(change.username, inbox), now);
  }

  /** Adds a follower at the next position, or updates one already there in place. */
  upsertFollower(follower: Follower): 'added' | 'updated' {
    const list = this.followers.get(follower.username) ?? [];
    const at = list.findIndex((f) => f.actor === follower.actor);
    const fields = {
      actor: follower.actor,
      inbox: follower.inbox,
      sharedInbox: follower.sharedInbox,
      followId: follower.followId,
    };
    if (at >= 0) {
      const existing = list[at]!;
      list[at] = { ...existing, ...fields };
      return 'updated';
    }
    list.push({
      position: ++this.lastFollowerPosition,
      ...fields,
      followedAt: follower.followedAt.getTime(),
    });
    this.followers.set(follower.username, list);
    return 'added';
  }

  /** Removes every follow `matches`; returns how many. */
  removeFollowers(matches: (username: string, follower: StoredFollower) => boolean): number {
    let removed = 0;
    for (const [username, list] of this.followers) {
      const kept = list.filter((f) => !matches(username, f));
      removed += list.length - kept.length;
      if (kept.length === 0) this.followers.delete(username);
      else if (kept.length !== list.length) this.followers.set(username, kept);
    }
    return removed;
  }

  /** The distinct inboxes that one delivery per follower of `username` goes to, in follow order. */
  deliveryInboxes(username: string): string[] {
    return [...new Set((this.followers.get(username) ?? []).map(deliveryInbox))];
  }

  /** A job as exported from a store (`l2 store import`), at the next id, not leased. */
  restoreJob(job: Omit<StoredJob, 'id' | 'leaseId' | 'leaseUntil'>): void {
    const id = ++this.lastJobId;
    this.jobs.set(id, { ...job, id, leaseId: null, leaseUntil: null });
  }

  /** A follow as exported from a store, at the next position. */
  restoreFollower(username: string, follower: Omit<StoredFollower, 'position'>): void {
    const list = this.followers.get(username) ?? [];
    list.push({ ...follower, position: ++this.lastFollowerPosition });
    this.followers.set(username, list);
  }

  /**
   * Queues `job`, or replaces the pending job holding its `replaceKey` (keeping that job's id, so its place among
   * equals): the one way a job enters the queue, as SQLite's prepareJobInsert.
   */
  insertJob(job: NewJob, now: Date): void {
    const replaced = this.pendingHolding(job.replaceKey ?? null);
    const id = replaced?.id ?? ++this.lastJobId;
    this.jobs.set(id, {
      id,
      kind: job.kind,
      payload: JSON.stringify(job.payload ?? null),
      lane: job.lane ?? null,
      attempts: 0,
      queuedAt: now.getTime(),
      runAt: now.getTime(),
      state: 'pending',
      leaseId: null,
      leaseUntil: null,
      lastError: null,
      replaceKey: job.replaceKey ?? null,
    });
  }

  /** The pending job holding `replaceKey`, if any (a scan: this store is for tests and demos). */
  pendingHolding(replaceKey: string | null): StoredJob | undefined {
    if (replaceKey === null) return undefined;
    for (const job of this.jobs.values())
      if (job.state === 'pending' && job.replaceKey === replaceKey) return job;
    return undefined;
  }

  /** How many pending jobs of `kind` wait in `lane`. */
  pendingInLane(lane: string | null, kind: string): number {
    let n = 0;
    for (const job of this.jobs.values())
      if (job.state === 'pending' && job.lane === lane && job.kind === kind) n++;
    return n;
  }
}
