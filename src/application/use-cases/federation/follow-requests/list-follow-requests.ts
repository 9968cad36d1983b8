// Rule: a person's waiting follow requests are listed, newest first, to the user themself only.
import type { FollowRequest } from '../../../../domain/follow-request.js';
import type { Page } from '../../../../domain/page.js';
import { ok, type Result } from '../../../../domain/result.js';
import type { TokenClaims } from '../../../../domain/token.js';
import { paginate, type CursorRequest } from '../../../pagination.js';
import type { FollowRequestStore } from '../../../ports/follow-request-store.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import { ownFollowersUser, type OwnFollowersError } from './own-followers.js';

export class ListFollowRequests {
  constructor(
    private readonly users: UserRepository,
    private readonly followRequests: FollowRequestStore,
  ) {}

  async execute(input: {
    asker: TokenClaims;
    username: string;
    page: CursorRequest;
  }): Promise<Result<Page<FollowRequest>, OwnFollowersError>> {
    const user = await ownFollowersUser(this.users, input.asker, input.username);
    if (!user.ok) return user;
    const filter = { username: user.value.username };
    return ok(
      await paginate(input.page, {
        older: (before, limit) => this.followRequests.listOlder(filter, before, limit),
        newer: (after, limit) => this.followRequests.listNewer(filter, after, limit),
        count: () => this.followRequests.count(filter),
      }),
    );
  }
}
