// Rule: a user's featured collection is their pinned assets, in the order they chose, live ones only.
import type { Asset } from '../../../domain/asset.js';
import { ok, type Result } from '../../../domain/result.js';
import type { UserProfile } from '../../../domain/user.js';
import type { AssetRepository } from '../../ports/asset-repository.js';
import type { GetPublicActor, PublicActorError } from '../accounts/get-public-actor.js';

export class GetFeatured {
  constructor(
    private readonly actors: GetPublicActor,
    private readonly assets: AssetRepository,
  ) {}

  async execute(username: string): Promise<Result<{ user: UserProfile; pinned: Asset[] }, PublicActorError>> {
    const found = await this.actors.execute(username);
    if (!found.ok) return found;
    const named = await Promise.all(found.value.profile.pinned.map((name) => this.assets.findByName(name)));
    const pinned = named.filter((asset): asset is Asset => asset !== null && asset.deletedAt === null);
    return ok({ user: found.value, pinned });
  }
}
