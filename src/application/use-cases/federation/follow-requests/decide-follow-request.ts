// Rule: the user themself accepts or rejects a waiting follow request (API.md §4.3). Accepting makes the actor a
// follower and queues the Accept of their Follow, rejecting queues a Reject of it — each one write, in which the
// request goes. An unknown request, another user's or one already decided is not found; each decision counts
// towards the user's FOLLOWER_ACTIONS_PER_USER once the request is known to exist.
import type { Urls } from '../../../../domain/activity-streams.js';
import type { FollowRequest, FollowRequestDecision } from '../../../../domain/follow-request.js';
import { err, ok, type Result } from '../../../../domain/result.js';
import type { TokenClaims } from '../../../../domain/token.js';
import type { Clock } from '../../../ports/clock.js';
import type { FollowRequestStore } from '../../../ports/follow-request-store.js';
import type { IdGenerator } from '../../../ports/id-generator.js';
import type { RateLimit } from '../../../ports/rate-limit.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import type { WorkSignal } from '../../../ports/work-signal.js';
import { acceptOf, rejectOf } from './decision-jobs.js';
import { ownFollowersUser, type FollowerActionError } from './own-followers.js';

export class DecideFollowRequest {
  constructor(
    private readonly users: UserRepository,
    private readonly followRequests: FollowRequestStore,
    private readonly followerActions: RateLimit,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly urls: Urls,
  ) {}

  async execute(input: {
    asker: TokenClaims;
    username: string;
    /** The request's own id. */
    id: string;
    decision: FollowRequestDecision;
  }): Promise<Result<FollowRequest, FollowerActionError>> {
    const user = await ownFollowersUser(this.users, input.asker, input.username);
    if (!user.ok) return user;
    const { username } = user.value;
    if ((await this.followRequests.find(username, input.id)) === null) return err({ type: 'not_found' });
    const verdict = await this.followerActions.consume(username);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const now = this.clock.now();
    // Decided by another request in between: as for an unknown id.
    const decided =
      input.decision === 'accepted'
        ? await this.followRequests.accept(username, input.id, acceptOf(this.urls, this.ids), now)
        : await this.followRequests.reject(
            username,
            input.id,
            (request) => rejectOf(this.urls, request, request.id),
            now,
          );
    if (decided === null) return err({ type: 'not_found' });
    this.signal.jobsQueued();
    return ok(decided);
  }
}
