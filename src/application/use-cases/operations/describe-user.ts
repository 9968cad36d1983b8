// Rule (operators): what the service holds about one account, at a glance — without its credentials.
import { normaliseUsername, type UserProfile } from '../../../domain/user.js';
import type { ActivityLog } from '../../ports/activity-log.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { Clock } from '../../ports/clock.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { RendererAttachments } from '../../ports/renderer-attachments.js';
import type { UserRepository } from '../../ports/user-repository.js';

export interface UserDescription {
  readonly profile: UserProfile;
  readonly activities: number;
  readonly liveAssets: number;
  readonly followers: number;
  /** Unexpired tokens issued to the user (revoked ones included: the registry keeps no verdict). */
  readonly sessions: number;
  readonly scopedTokens: number;
  readonly l1Servers: readonly string[];
}

export class DescribeUser {
  constructor(
    private readonly users: UserRepository,
    private readonly activities: ActivityLog,
    private readonly assets: AssetRepository,
    private readonly followers: FollowerRepository,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly attachments: RendererAttachments,
    private readonly clock: Clock,
  ) {}

  /** The account, deleted or not; null when there is none. */
  async execute(name: string): Promise<UserDescription | null> {
    const username = normaliseUsername(name);
    const profile = username.ok ? await this.users.findProfile(username.value) : null;
    if (!profile) return null;
    const who = profile.username;
    const [activities, liveAssets, followers, tokens, attached] = await Promise.all([
      this.activities.count({ actor: who }),
      this.assets.count({ owner: who }),
      this.followers.count({ username: who }),
      this.issuedTokens.listActiveByUser(who, this.clock.now()),
      this.attachments.list(who),
    ]);
    return {
      profile,
      activities,
      liveAssets,
      followers,
      sessions: tokens.filter((t) => t.l1Server === null).length,
      scopedTokens: tokens.filter((t) => t.l1Server !== null).length,
      l1Servers: attached.map((a) => a.l1Server),
    };
  }
}
