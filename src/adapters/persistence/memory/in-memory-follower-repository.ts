import {
  NO_LANE_CAP,
  type FollowerFilter,
  type FollowerRepository,
  type FollowMatch,
  type FollowOutcome,
} from '../../../application/ports/follower-repository.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { hostKeyOfUrl, ruleCovers } from '../../../domain/domain-rules.js';
import type { Follower } from '../../../domain/follower.js';
import type { Username } from '../../../domain/user.js';
import { MemoryDatabase, type StoredFollower } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';
import { blockedActor } from './in-memory-domain-rule-store.js';

const followerOf =
  (username: Username) =>
  (stored: StoredFollower): Follower => ({
    username,
    actor: stored.actor,
    inbox: stored.inbox,
    sharedInbox: stored.sharedInbox,
    followId: stored.followId,
    followedAt: new Date(stored.followedAt),
  });

/** Whether a follower is inside the filter's allowlist scope (every follower when there is none). */
const inScope =
  (filter: FollowerFilter) =>
  (stored: StoredFollower): boolean => {
    if (!filter.scope) return true;
    const key = hostKeyOfUrl(stored.actor);
    return key !== null && filter.scope.allowKeys.some((ruleKey) => ruleCovers(ruleKey, key));
  };

export class InMemoryFollowerRepository implements FollowerRepository {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async add(
    follower: Follower,
    accept: NewJob,
    now: Date,
    maxPendingInLane = NO_LANE_CAP,
  ): Promise<FollowOutcome> {
    this.db.assertOpen();
    // Checked before the first change, so a payload JSON cannot hold leaves nothing half-written.
    JSON.stringify(accept.payload);
    if (blockedActor(this.db, follower.actor)) return 'shut_out';
    const replaces = this.db.pendingHolding(accept.replaceKey ?? null) !== undefined;
    if (!replaces && this.db.pendingInLane(accept.lane ?? null, accept.kind) >= maxPendingInLane)
      return 'lane_full';
    const outcome = this.db.upsertFollower(follower);
    this.db.insertJob(accept, now);
    return outcome;
  }

  async find(username: Username, actor: string): Promise<Follower | null> {
    this.db.assertOpen();
    const stored = this.followersOf({ username }).find((f) => f.actor === actor);
    return stored ? followerOf(username)(stored) : null;
  }

  async removeWithNotice(
    username: Username,
    actor: string,
    notice: (follower: Follower) => NewJob,
    now: Date,
  ): Promise<Follower | null> {
    const follower = await this.find(username, actor);
    if (!follower) return null;
    const job = notice(follower);
    // Checked before the first change, so a payload JSON cannot hold leaves nothing half-written.
    JSON.stringify(job.payload);
    this.db.removeFollowers((user, stored) => user === username && stored.actor === actor);
    this.db.insertJob(job, now);
    return follower;
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    this.db.assertOpen();
    return this.db.removeFollowers(
      (username, stored) =>
        stored.actor === actor &&
        ('username' in match ? username === match.username : stored.followId === match.followId),
    );
  }

  async removeActor(actor: string): Promise<number> {
    this.db.assertOpen();
    return this.db.removeFollowers((_username, stored) => stored.actor === actor);
  }

  async listOlder(
    filter: FollowerFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<Follower>[]> {
    this.db.assertOpen();
    return seekOlder(this.followersOf(filter), before, limit, inScope(filter), followerOf(filter.username));
  }

  async listNewer(filter: FollowerFilter, after: number, limit: number): Promise<Positioned<Follower>[]> {
    this.db.assertOpen();
    return seekNewer(this.followersOf(filter), after, limit, inScope(filter), followerOf(filter.username));
  }

  async count(filter: FollowerFilter): Promise<number> {
    this.db.assertOpen();
    return this.followersOf(filter).filter(inScope(filter)).length;
  }

  private followersOf(filter: FollowerFilter): readonly StoredFollower[] {
    return this.db.followers.get(filter.username) ?? [];
  }
}
