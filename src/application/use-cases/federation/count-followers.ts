// Rule: how many actors follow a user — the followers collection's root and the profile show the true count (in
// allowlist mode, of those on allowed domains: the collection's own).
import type { Username } from '../../../domain/user.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';
import type { FederationPolicy } from '../../services/federation-policy.js';

export class CountFollowers {
  constructor(
    private readonly followers: FollowerRepository,
    private readonly policy: Pick<FederationPolicy, 'followerScope'>,
  ) {}

  async execute(username: Username): Promise<number> {
    return this.followers.count({ username, scope: await this.policy.followerScope() });
  }
}
