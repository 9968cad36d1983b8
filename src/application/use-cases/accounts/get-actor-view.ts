// Rule: an actor is shown with its avatar and header as the picture assets they are, while each is still one of the
// user's live https pictures (ActorViews: the profile Update its followers get is made from the same view).
import type { ActorView } from '../../../domain/actor-document.js';
import type { UserProfile } from '../../../domain/user.js';
import type { ActorViews } from '../../services/actor-views.js';

export class GetActorView {
  constructor(private readonly views: ActorViews) {}

  execute(user: UserProfile): Promise<ActorView> {
    return this.views.of(user);
  }
}
