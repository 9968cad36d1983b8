// The federation area: the inbox, followers and the featured collection, which reads its actor as every public
// edge does (the registered GetPublicActor).
import type { AccountUseCases } from '../accounts/account-use-cases.js';
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { CountFollowers } from './count-followers.js';
import { GetFeatured } from './get-featured.js';
import { ListFollowers } from './list-followers.js';
import { ReceiveActivity } from './receive-activity.js';

export const FEDERATION_USE_CASES = {
  listFollowers: (p) => new ListFollowers(p.store.followers),
  countFollowers: (p) => new CountFollowers(p.store.followers),
  getFeatured: (p, uses) => new GetFeatured(uses.getPublicActor, p.store.assets),
  receiveActivity: (p) =>
    new ReceiveActivity(
      p.store.users,
      p.store.followers,
      p.store.followRequests,
      p.store.jobs,
      p.signatureVerifier,
      p.federation,
      p.workSignal,
      p.clock,
      p.ids,
      p.urls,
      p.follows,
    ),
} satisfies AreaRegistry<Pick<AccountUseCases, 'getPublicActor'>>;

export type FederationUseCases = UseCasesOf<typeof FEDERATION_USE_CASES>;
