// Rule: a user's followers collection reports how many remote actors follow them.
import type { Username } from '../../domain/user.js';
import type { FollowerRepository } from '../ports/follower-repository.js';

export class CountFollowers {
  constructor(private readonly followers: FollowerRepository) {}

  execute(username: Username): Promise<number> {
    return this.followers.count(username);
  }
}
