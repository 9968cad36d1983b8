// Rule: an actor shows its avatar and header as the picture assets they are — the file, its media type and its alt
// text — and only while each is still one of the user's live https pictures. The actor document served (GetActorView)
// and the profile Update delivered to followers (Deliveries) are both made from this view.
import type { ActorView } from '../../domain/actor-document.js';
import { isProfilePicture, type AssetName } from '../../domain/asset.js';
import type { UserProfile } from '../../domain/user.js';
import type { AssetRepository } from '../ports/asset-repository.js';

export class ActorViews {
  constructor(private readonly assets: AssetRepository) {}

  /** `user` with the pictures its profile names, each null unless it is still one of the user's live pictures. */
  async of(user: UserProfile): Promise<ActorView> {
    const picture = async (name: AssetName | null) => {
      const asset = name === null ? null : await this.assets.findByName(name);
      return asset && isProfilePicture(asset, user.username) ? asset : null;
    };
    const [avatar, header] = await Promise.all([picture(user.profile.avatar), picture(user.profile.header)]);
    return { user, avatar, header };
  }
}
