import type { HostScope } from '../../domain/domain-rules.js';
import type { Follower } from '../../domain/follower.js';
import type { Username } from '../../domain/user.js';
import type { NewJob } from './job-queue.js';
import type { SeekableList } from './positioned.js';

export interface FollowerFilter {
  /** The local user followed. */
  readonly username: Username;
  /**
   * Allowlist mode (API.md §4.3): only followers whose actor's host one of these rule keys covers are listed and
   * counted; null or absent: every follower.
   */
  readonly scope?: HostScope;
}

/** The cap of `add` when none is given: a number every store can bind (SQLite's LIMIT takes no Infinity). */
export const NO_LANE_CAP = Number.MAX_SAFE_INTEGER;

/**
 * What `add` did: stored a new follower, updated one already there, or wrote nothing — the Accept's lane is full, or
 * a block rule covers the actor's host (`shut_out`).
 */
export type FollowOutcome = 'added' | 'updated' | 'lane_full' | 'shut_out';

/** Which follow of an actor to end: the one of a user, or the one made by a given Follow activity. */
export type FollowMatch = { readonly username: Username } | { readonly followId: string };

/**
 * Remote actors following local users, listed in the order they first followed (a repeated Follow keeps its place).
 * A user's activities are delivered to these followers: the activity log reads them when it appends.
 */
export interface FollowerRepository extends SeekableList<Follower, FollowerFilter> {
  /**
   * Stores `follower` and queues `accept`, in one transaction (the Accept leaves only if the follower is stored).
   * A follower already there keeps its place and gets the new inbox, shared inbox and Follow id: `'updated'`.
   * `accept` is queued as JobQueue.enqueue queues it: with a `replaceKey` a pending job holds, it replaces that job.
   * When it would be a new job and its lane already holds `maxPendingInLane` pending jobs of its kind (no cap when not
   * given), nothing at all is written: `'lane_full'`. When a block rule covers the follower actor's host — read in
   * the same transaction, so a Follow that passed the inbox's check while the block was being written cannot slip
   * in after it — nothing is written: `'shut_out'`.
   */
  add(follower: Follower, accept: NewJob, now: Date, maxPendingInLane?: number): Promise<FollowOutcome>;
  /** `actor`'s follow of `username`, or null. */
  find(username: Username, actor: string): Promise<Follower | null>;
  /**
   * Ends `actor`'s follow of `username` and queues `notice(follower)` (the Reject of "remove follower"), in one
   * write; returns the follower as it was, or null (none: nothing written).
   */
  removeWithNotice(
    username: Username,
    actor: string,
    notice: (follower: Follower) => NewJob,
    now: Date,
  ): Promise<Follower | null>;
  /** Ends `actor`'s follow that `match` names; returns how many follows ended (0 when none matched: harmless). */
  remove(actor: string, match: FollowMatch): Promise<number>;
  /** Ends every follow of `actor` (it was deleted); returns how many. */
  removeActor(actor: string): Promise<number>;
}
