// Rule: a person blocks a remote actor (API.md §4.3 "Blocking an actor"), named by its URL or @user@host. A follower
// or an actor whose follow request waits, named by its id, needs no fetch (its stored inbox is used); anyone else is
// resolved afresh. Themself, a user of this L2, or a name that does not resolve to an actor is refused (400, path
// `actor`). In one write the block is stored, their follow ends and their request is dropped — a Reject of their
// Follow queued when there was one — and a Block is queued to their own inbox.
// An actor already blocked answers the block stored before, and nothing is written. Each block counts towards the
// user's FOLLOWER_ACTIONS_PER_USER once the cheap checks passed, before anything is fetched.
import {
  blockSentOf,
  checkBlockTarget,
  BLOCK_TARGET_MESSAGES,
  type ActorBlock,
} from '../../../../domain/actor-block.js';
import { parseActorName, type ActorName } from '../../../../domain/actor-name.js';
import type { Urls } from '../../../../domain/activity-streams.js';
import { sameOrigin } from '../../../../domain/federation.js';
import { blockDocument, rejectDocument, rejectId } from '../../../../domain/follow-documents.js';
import { documentDeliveryJob } from '../../../../domain/jobs.js';
import { err, ok, type Result } from '../../../../domain/result.js';
import type { TokenClaims } from '../../../../domain/token.js';
import { normaliseUsername, type Username } from '../../../../domain/user.js';
import type { ActorBlockStore, FollowEnded } from '../../../ports/actor-block-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { IdGenerator } from '../../../ports/id-generator.js';
import type { RateLimit } from '../../../ports/rate-limit.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import type { WorkSignal } from '../../../ports/work-signal.js';
import type { ActorResolution } from '../../../services/actor-resolution.js';
import { blockingUser, type BlockingUserError } from './blocking-user.js';

/** The field every refusal of the named actor points at. */
const PATH = 'actor';

export type BlockActorError =
  | BlockingUserError
  | { readonly type: 'invalid_request'; readonly path: string; readonly message: string }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

/** What the block did: `created` (201) or `exists` (200, the block stored before). */
export interface BlockActorOutcome {
  readonly outcome: 'created' | 'exists';
  readonly block: ActorBlock;
}

/** The actor to block, as far as a block needs it. */
interface Target {
  readonly id: string;
  readonly inbox: string;
  /** Their follow of the user, or their waiting request, when there is one (known before the block, for the Reject). */
  readonly follow: FollowEnded | null;
}

const invalid = (message: string): BlockActorError => ({ type: 'invalid_request', path: PATH, message });

export class BlockActor {
  constructor(
    private readonly users: UserRepository,
    private readonly blocks: ActorBlockStore,
    private readonly resolution: Pick<ActorResolution, 'resolve'>,
    private readonly followerActions: RateLimit,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly urls: Urls,
  ) {}

  async execute(input: {
    asker: TokenClaims;
    username: string;
    /** The actor as the person named it: its URL or @user@host. */
    actor: string;
  }): Promise<Result<BlockActorOutcome, BlockActorError>> {
    const user = await blockingUser(this.users, input.asker, input.username);
    if (!user.ok) return user;
    const username = user.value;
    const name = parseActorName(input.actor);
    if (!name.ok) return err(invalid(name.error));
    const local = this.localRefusal(username, name.value);
    if (local !== null) return err(invalid(local));
    if (name.value.kind === 'url') {
      const stored = await this.blocks.find(username, name.value.url);
      if (stored !== null) return ok({ outcome: 'exists', block: stored });
    }

    const verdict = await this.followerActions.consume(username);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const target = await this.target(username, name.value);
    if (!target.ok) return target;
    const { id, inbox, follow } = target.value;

    const ownActor = this.urls.actor(username);
    const block: ActorBlock = {
      id: this.ids.newId(),
      username,
      actor: id,
      inbox,
      createdAt: this.clock.now(),
    };
    const send = (document: Record<string, unknown>, to: string) =>
      documentDeliveryJob({ signer: username, inbox: to, document });
    const reject =
      follow === null
        ? null
        : send(
            rejectDocument({
              id: rejectId(ownActor, block.id),
              actor: ownActor,
              follow: { id: follow.followId, actor: id, object: ownActor },
            }),
            follow.inbox,
          );
    const blocked = await this.blocks.block(
      block,
      { reject, block: send(blockDocument(blockSentOf(block, ownActor)), inbox) },
      block.createdAt,
    );
    if (blocked.outcome === 'created') this.signal.jobsQueued();
    return ok(blocked);
  }

  /**
   * Why a name of this L2 cannot be blocked (themself, or another of its users), judged without a request; null for
   * a name elsewhere. A URL of this server that is no user's actor is no actor at all.
   */
  private localRefusal(username: Username, name: ActorName): string | null {
    const base = new URL(this.urls.base);
    const named =
      name.kind === 'url'
        ? new URL(name.url).origin === base.origin
          ? (this.urls.usernameOf(name.url) ?? '')
          : null
        : name.host === base.host
          ? name.user
          : null;
    if (named === null) return null;
    const user = normaliseUsername(named);
    if (!user.ok) return 'That is no actor of this server.';
    return BLOCK_TARGET_MESSAGES[user.value === username ? 'self' : 'local_user'];
  }

  /** A follower or a requester named by its id, from what is stored; anyone else resolved afresh and judged. */
  private async target(username: Username, name: ActorName): Promise<Result<Target, BlockActorError>> {
    if (name.kind === 'url') {
      const follow = await this.blocks.followOf(username, name.url);
      if (follow !== null) return ok({ id: follow.actor, inbox: follow.inbox, follow });
    }
    const resolved = await this.resolution.resolve(username, name, PATH);
    if (!resolved.ok)
      return err(resolved.error.type === 'rate_limited' ? resolved.error : invalid(resolved.error.message));
    const actor = resolved.value;
    const checked = checkBlockTarget({
      id: actor.id,
      local: actor.local !== null,
      ownActor: this.urls.actor(username),
    });
    if (!checked.ok) return err(invalid(BLOCK_TARGET_MESSAGES[checked.error]));
    // What the actor is sent goes to its own server: its document cannot point it at somebody else's.
    if (!sameOrigin(actor.inbox, actor.id))
      return err(invalid('That actor’s inbox is not on its own server.'));
    return ok({ id: actor.id, inbox: actor.inbox, follow: await this.blocks.followOf(username, actor.id) });
  }
}
