// The federation area: the inbox, followers, a person's blocks and the featured collection, which reads its actor
// as every public edge does (the registered GetPublicActor).
import type { AccountUseCases } from '../accounts/account-use-cases.js';
import type { AreaRegistry, UseCasesOf } from '../area-registry.js';
import { BlockActor } from './blocks/block-actor.js';
import { ListActorBlocks } from './blocks/list-actor-blocks.js';
import { UnblockActor } from './blocks/unblock-actor.js';
import { CountFollowers } from './count-followers.js';
import { CountFollowRequests } from './follow-requests/count-follow-requests.js';
import { DecideFollowRequest } from './follow-requests/decide-follow-request.js';
import { ListFollowRequests } from './follow-requests/list-follow-requests.js';
import { RemoveFollower } from './follow-requests/remove-follower.js';
import { GetFeatured } from './get-featured.js';
import { ListFollowers } from './list-followers.js';
import { ReceiveActivity } from './receive-activity.js';

export const FEDERATION_USE_CASES = {
  listFollowers: (p) => new ListFollowers(p.store.followers, p.federationPolicy),
  countFollowers: (p) => new CountFollowers(p.store.followers, p.federationPolicy),
  listFollowRequests: (p) => new ListFollowRequests(p.store.users, p.store.followRequests),
  countFollowRequests: (p) => new CountFollowRequests(p.store.followRequests),
  decideFollowRequest: (p) =>
    new DecideFollowRequest(
      p.store.users,
      p.store.followRequests,
      p.followerActions,
      p.workSignal,
      p.clock,
      p.ids,
      p.urls,
    ),
  removeFollower: (p) =>
    new RemoveFollower(
      p.store.users,
      p.store.followers,
      p.followerActions,
      p.workSignal,
      p.clock,
      p.ids,
      p.urls,
    ),
  getFeatured: (p, uses) => new GetFeatured(uses.getPublicActor, p.store.assets),
  receiveActivity: (p) =>
    new ReceiveActivity(
      p.store.users,
      p.store.followers,
      p.store.followRequests,
      p.store.actorBlocks,
      p.store.jobs,
      p.signatureVerifier,
      p.federation,
      p.workSignal,
      p.clock,
      p.ids,
      p.urls,
      p.follows,
      p.federationPolicy,
    ),
  blockActor: (p) =>
    new BlockActor(
      p.store.users,
      p.store.actorBlocks,
      p.actorResolution,
      p.followerActions,
      p.workSignal,
      p.clock,
      p.ids,
      p.urls,
    ),
  unblockActor: (p) =>
    new UnblockActor(p.store.users, p.store.actorBlocks, p.followerActions, p.workSignal, p.clock, p.urls),
  listActorBlocks: (p) => new ListActorBlocks(p.store.users, p.store.actorBlocks),
} satisfies AreaRegistry<Pick<AccountUseCases, 'getPublicActor'>>;

export type FederationUseCases = UseCasesOf<typeof FEDERATION_USE_CASES>;
