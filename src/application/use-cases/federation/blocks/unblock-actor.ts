// Rule: a person unblocks an actor they block (API.md §4.3): the block is removed and an Undo of the Block it sent is
// queued to the actor's own inbox, in one write. The actor follows again only if it sends a new Follow. Each unblock
// counts towards the user's FOLLOWER_ACTIONS_PER_USER, once the block is known to exist.
import { blockSentOf, type ActorBlock } from '../../../../domain/actor-block.js';
import type { Urls } from '../../../../domain/activity-streams.js';
import { undoBlockDocument } from '../../../../domain/follow-documents.js';
import { documentDeliveryJob } from '../../../../domain/jobs.js';
import { err, ok, type Result } from '../../../../domain/result.js';
import type { TokenClaims } from '../../../../domain/token.js';
import type { ActorBlockStore } from '../../../ports/actor-block-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { RateLimit } from '../../../ports/rate-limit.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import type { WorkSignal } from '../../../ports/work-signal.js';
import { blockingUser, type BlockingUserError } from './blocking-user.js';

export type UnblockActorError =
  BlockingUserError | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class UnblockActor {
  constructor(
    private readonly users: UserRepository,
    private readonly blocks: ActorBlockStore,
    private readonly followerActions: RateLimit,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly urls: Urls,
  ) {}

  async execute(input: {
    asker: TokenClaims;
    username: string;
    /** The block's own id. */
    id: string;
  }): Promise<Result<ActorBlock, UnblockActorError>> {
    const user = await blockingUser(this.users, input.asker, input.username);
    if (!user.ok) return user;
    const block = await this.blocks.findById(user.value, input.id);
    if (block === null) return err({ type: 'not_found' });
    const verdict = await this.followerActions.consume(user.value);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const undo = documentDeliveryJob({
      signer: user.value,
      inbox: block.inbox,
      document: undoBlockDocument(blockSentOf(block, this.urls.actor(user.value))),
    });
    // Another request may have unblocked it in between: then there is nothing to undo, as for an unknown id.
    if (!(await this.blocks.unblock(user.value, block.id, undo, this.clock.now())))
      return err({ type: 'not_found' });
    this.signal.jobsQueued();
    return ok(block);
  }
}
