// Rule: only the owner deletes a live asset; it disappears from every list, its name stays taken, and the
// deletion and its signed Delete activity are written together.
import type { Activity } from '../../../domain/activity.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { Username } from '../../../domain/user.js';
import type { PublishActivity } from './publish-activity.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { AssetError } from './asset-checks.js';
import { ownedLiveAsset } from './asset-checks.js';

export class DeleteAsset {
  constructor(
    private readonly assets: AssetRepository,
    private readonly users: UserRepository,
    private readonly publish: PublishActivity,
  ) {}

  async execute(input: {
    actor: Username;
    name: string;
  }): Promise<Result<{ activity: Activity }, AssetError>> {
    const found = await ownedLiveAsset(this.assets, input.name, input.actor);
    if (!found.ok) return found;
    const asset = found.value;
    const owner = await this.users.findByUsername(input.actor);
    if (!owner) return err({ type: 'forbidden' });
    const published = await this.publish.execute({
      publisher: owner,
      edit: { kind: 'delete', current: asset },
    });
    return published.ok ? ok({ activity: published.value.activity }) : err({ type: 'gone' });
  }
}
