// Rule: how many actors follow a user — the followers collection's root and the profile show the true count.
import type { Username } from '../../../domain/user.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';

export class CountFollowers {
  constructor(private readonly followers: FollowerRepository) {}

  execute(username: Username): Promise<number> {
    return this.followers.count({ username });
  }
}
