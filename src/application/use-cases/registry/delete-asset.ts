// Rule: only the owner, through a session token and within the budget of writes, deletes a live asset; it disappears from every list, its name stays taken, and the
// deletion and its signed Delete activity are written together.
import type { Activity } from '../../../domain/activity.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { PublishActivity } from './publish-activity.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { RateLimit } from '../../ports/rate-limit.js';
import type { UserRepository } from '../../ports/user-repository.js';
import { ownedLiveAsset, spendWrite, writerOf, type AssetError } from './asset-checks.js';
import { isActive } from '../../../domain/user.js';

export class DeleteAsset {
  constructor(
    private readonly assets: AssetRepository,
    private readonly users: UserRepository,
    private readonly publish: PublishActivity,
    private readonly writes: RateLimit,
  ) {}

  async execute(input: {
    /** The token the request was made with. */
    writer: TokenClaims;
    name: string;
  }): Promise<Result<{ activity: Activity }, AssetError>> {
    const writer = writerOf(input.writer);
    if (!writer.ok) return writer;
    const found = await ownedLiveAsset(this.assets, input.name, writer.value);
    if (!found.ok) return found;
    const asset = found.value;
    const owner = await this.users.findByUsername(writer.value);
    // A deleted account writes nothing, even through a request that was signed in before it was deleted.
    if (!owner || !isActive(owner)) return err({ type: 'forbidden', reason: 'not_owner' });
    const spent = await spendWrite(this.writes, owner.username);
    if (!spent.ok) return spent;
    const published = await this.publish.execute({
      publisher: owner,
      edit: { kind: 'delete', current: asset },
    });
    return published.ok ? ok({ activity: published.value.activity }) : err({ type: 'gone' });
  }
}
