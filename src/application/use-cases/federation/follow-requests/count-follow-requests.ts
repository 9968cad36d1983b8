// Rule: how many follow requests wait for a user — shown to the user themself, beside the link to them.
import type { Username } from '../../../../domain/user.js';
import type { FollowRequestStore } from '../../../ports/follow-request-store.js';

export class CountFollowRequests {
  constructor(private readonly followRequests: FollowRequestStore) {}

  execute(username: Username): Promise<number> {
    return this.followRequests.count({ username });
  }
}
