// Rule: only the owner, through a session token and within the budget of writes, deletes a live asset; it disappears from every list, its name stays taken, and the
// deletion and its signed Delete activity are written together.
import type { Activity } from '../../../domain/activity.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { PublishActivity } from './publish-activity.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { RateLimit } from '../../ports/rate-limit.js';
import type { UserRepository } from '../../ports/user-repository.js';
import { activeWriterSpending, ownedLiveAsset, writerOf, type AssetError } from './asset-checks.js';

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
    const owner = await activeWriterSpending(this.users, this.writes, writer.value);
    if (!owner.ok) return owner;
    const published = await this.publish.execute({
      publisher: owner.value,
      edit: { kind: 'delete', current: asset },
    });
    return published.ok ? ok({ activity: published.value.activity }) : err({ type: 'gone' });
  }
}
