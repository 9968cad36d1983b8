// Rule: a user's followers collection lists the actors following them, newest follow first, with the true count —
// in allowlist mode only those on allowed domains (API.md §4.3: the others are kept, hidden until allowed).
import type { Page } from '../../../domain/page.js';
import type { Follower } from '../../../domain/follower.js';
import type { Username } from '../../../domain/user.js';
import { paginate, type CursorRequest } from '../../pagination.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';
import type { FederationPolicy } from '../../services/federation-policy.js';

export class ListFollowers {
  constructor(
    private readonly followers: FollowerRepository,
    private readonly policy: Pick<FederationPolicy, 'followerScope'>,
  ) {}

  async execute(username: Username, page: CursorRequest): Promise<Page<Follower>> {
    const filter = { username, scope: await this.policy.followerScope() };
    return paginate(page, {
      older: (before, limit) => this.followers.listOlder(filter, before, limit),
      newer: (after, limit) => this.followers.listNewer(filter, after, limit),
      count: () => this.followers.count(filter),
    });
  }
}
