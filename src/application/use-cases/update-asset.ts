// Rule: only the owner changes a live asset's description, tags, url or media type; the change and its signed
// Update activity are written together.
import type { Activity } from '../../domain/activity.js';
import type { Asset, AssetFields } from '../../domain/asset.js';
import { err, type Result } from '../../domain/result.js';
import type { Username } from '../../domain/user.js';
import type { PublishActivity } from './publish-activity.js';
import type { AssetRepository } from '../ports/asset-repository.js';
import type { UserRepository } from '../ports/user-repository.js';
import { checkFields, ownedLiveAsset, type AssetError } from './asset-checks.js';

const MAX_EDIT_ATTEMPTS = 10;

export type AssetChanges = Partial<Pick<AssetFields, 'description' | 'tags' | 'url' | 'mediaType'>>;

export class UpdateAsset {
  constructor(
    private readonly assets: AssetRepository,
    private readonly users: UserRepository,
    private readonly publish: PublishActivity,
  ) {}

  async execute(input: {
    actor: Username;
    name: string;
    changes: AssetChanges;
  }): Promise<Result<{ asset: Asset; activity: Activity }, AssetError>> {
    // Another writer (another process) may change the asset between our read and our write: the store then
    // refuses the stale change, and the edit is applied again on top of the fresh asset.
    for (let attempt = 0; attempt < MAX_EDIT_ATTEMPTS; attempt++) {
      const found = await ownedLiveAsset(this.assets, input.name, input.actor);
      if (!found.ok) return found;
      const current = found.value;
      const fields = checkFields({ ...current, ...input.changes });
      if (!fields.ok) return fields;
      const owner = await this.users.findByUsername(input.actor);
      if (!owner) return err({ type: 'forbidden' });

      const published = await this.publish.execute({
        publisher: owner,
        edit: { kind: 'update', current, fields: fields.value },
      });
      if (published.ok) return published;
      if (published.error !== 'asset_changed') return err({ type: 'gone' });
    }
    throw new Error(`asset ${input.name} kept changing under ${MAX_EDIT_ATTEMPTS} edit attempts`);
  }
}
