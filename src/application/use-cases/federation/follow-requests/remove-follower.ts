// Rule: the user themself removes a follower (API.md §4.3, Mastodon's "remove follower"): in one write the actor
// leaves the followers and a Reject of their Follow is queued to their own inbox, on which Mastodon, GoToSocial and
// Misskey end the follow. Not a follower: not found. Each removal counts towards FOLLOWER_ACTIONS_PER_USER once the
// follower is known to exist.
import type { Urls } from '../../../../domain/activity-streams.js';
import type { Follower } from '../../../../domain/follower.js';
import { err, ok, type Result } from '../../../../domain/result.js';
import type { TokenClaims } from '../../../../domain/token.js';
import type { Clock } from '../../../ports/clock.js';
import type { FollowerRepository } from '../../../ports/follower-repository.js';
import type { IdGenerator } from '../../../ports/id-generator.js';
import type { RateLimit } from '../../../ports/rate-limit.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import type { WorkSignal } from '../../../ports/work-signal.js';
import { rejectOf } from './decision-jobs.js';
import { ownFollowersUser, type FollowerActionError } from './own-followers.js';

export class RemoveFollower {
  constructor(
    private readonly users: UserRepository,
    private readonly followers: FollowerRepository,
    private readonly followerActions: RateLimit,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly urls: Urls,
  ) {}

  async execute(input: {
    asker: TokenClaims;
    username: string;
    /** Their actor id. */
    actor: string;
  }): Promise<Result<Follower, FollowerActionError>> {
    const user = await ownFollowersUser(this.users, input.asker, input.username);
    if (!user.ok) return user;
    const { username } = user.value;
    if ((await this.followers.find(username, input.actor)) === null) return err({ type: 'not_found' });
    const verdict = await this.followerActions.consume(username);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const id = this.ids.newId();
    const removed = await this.followers.removeWithNotice(
      username,
      input.actor,
      (follower) => rejectOf(this.urls, follower, id),
      this.clock.now(),
    );
    // Removed by another request (or their Undo) in between: as for one that does not follow.
    if (removed === null) return err({ type: 'not_found' });
    this.signal.jobsQueued();
    return ok(removed);
  }
}
