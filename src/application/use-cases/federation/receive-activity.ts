// Rule: the inbox acts only on activities signed by their own actor. A Follow of a local user makes the actor a
// follower and answers it with an Accept signed by that user; an Undo of the Follow ends it; a Delete of the actor
// removes it everywhere (and an Undo or Delete drops a waiting follow request too: follow-decision.ts decides each
// Follow); anything else is accepted and ignored. A disabled account's inbox still takes Undos and
// Deletes (so its followers stay right for when it is enabled), but a Follow of it is ignored. What one remote
// server can make L2 store and send is bounded (issue 23): one Accept waits per (user, follower) — a repeated Follow
// replaces it —, Follows are budgeted per actor and per origin, and Accepts waiting for one host are capped.
import type { Urls } from '../../../domain/activity-streams.js';
import {
  idOf,
  parseIncomingActivity,
  sameOrigin,
  typeOf,
  type IncomingActivity,
} from '../../../domain/federation.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { normaliseUsername, type UserProfile, type Username } from '../../../domain/user.js';
import type { ActorBlockStore } from '../../ports/actor-block-store.js';
import type { Clock } from '../../ports/clock.js';
import type { FederationClient } from '../../ports/federation-client.js';
import type { FederationGate } from '../../ports/federation-gate.js';
import type { FollowRequestStore } from '../../ports/follow-request-store.js';
import type { FollowerRepository, FollowMatch } from '../../ports/follower-repository.js';
import type { IdGenerator } from '../../ports/id-generator.js';
import type { JobQueue } from '../../ports/job-queue.js';
import { decideFollow, type FollowLimits, type FollowPorts } from './follow-decision.js';
import {
  SIGNATURE_REFUSALS,
  type SignatureRefused,
  type SignatureRetryLater,
  type SignatureRefusal,
  type SignatureVerifier,
  type SignedRequest,
} from '../../ports/signature-verifier.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';

export type InboxError =
  | { readonly type: 'invalid_request'; readonly message: string }
  | { readonly type: 'not_found' }
  /** The inbox's owner deleted their account. */
  | { readonly type: 'gone' }
  /**
   * L2 does not federate with the server of the activity's actor or of its signature's key (API.md §4.3: blocked,
   * or unlisted in allowlist mode): nothing was fetched or stored.
   */
  | { readonly type: 'forbidden' }
  /**
   * The signature is missing or wrong, or the signer is not the activity's actor: nothing was stored. `refusal` and
   * `message` say why, for the operator's log and metrics only.
   */
  | { readonly type: 'unauthenticated'; readonly refusal: SignatureRefusal; readonly message: string }
  /**
   * The signer's key or the follower's actor could not be fetched now (the network, this service's own load): the
   * peer should send the activity again later.
   */
  | { readonly type: 'unavailable'; readonly message: string; readonly retryAfterSeconds: number }
  /**
   * Beyond a limit (`reason`): this client named too many unknown keys (nothing was fetched), or a Follow exceeds a
   * budget of its actor or its server, or too many Accepts wait for its server (nothing was stored). The peer may
   * send it again after `retryAfterSeconds`.
   */
  | {
      readonly type: 'rate_limited';
      readonly reason: InboxLimit;
      readonly message: string;
      readonly retryAfterSeconds: number;
    };

/** The limits an inbox request can run into (see InboxError's `rate_limited`). */
export const INBOX_LIMITS = ['key_budget', 'actor_budget', 'origin_budget', 'lane_full'] as const;
export type InboxLimit = (typeof INBOX_LIMITS)[number];

/** Every reason an inbox request is refused for, as operators count them: one word each. */
export const INBOX_REFUSALS = [
  ...SIGNATURE_REFUSALS,
  'unavailable',
  ...INBOX_LIMITS,
  'domain_blocked',
] as const;

/** The word operators count an inbox refusal under (null for refusals that are no concern of theirs: 400, 404, 410). */
export function refusalReason(error: InboxError): (typeof INBOX_REFUSALS)[number] | null {
  switch (error.type) {
    case 'unauthenticated':
      return error.refusal;
    case 'unavailable':
      return 'unavailable';
    case 'rate_limited':
      return error.reason;
    case 'forbidden':
      return 'domain_blocked';
    default:
      return null;
  }
}

export { LANE_FULL_RETRY_AFTER_SECONDS, type FollowLimits } from './follow-decision.js';

/** What the activity did; every one of them answers 202. */
export type InboxOutcome = 'followed' | 'requested' | 'rejected' | 'unfollowed' | 'removed' | 'ignored';

export class ReceiveActivity {
  private readonly decision: FollowPorts;

  constructor(
    private readonly users: UserRepository,
    private readonly followers: FollowerRepository,
    private readonly followRequests: FollowRequestStore,
    actorBlocks: ActorBlockStore,
    jobs: JobQueue,
    private readonly verifier: SignatureVerifier,
    client: FederationClient,
    signal: WorkSignal,
    clock: Clock,
    ids: IdGenerator,
    private readonly urls: Urls,
    limits: FollowLimits,
    private readonly gate: FederationGate,
  ) {
    this.decision = {
      users,
      followers,
      followRequests,
      actorBlocks,
      jobs,
      client,
      signal,
      clock,
      ids,
      urls,
      limits,
    };
  }

  /**
   * `inboxOwner` is the user whose personal inbox was posted to, or null for the shared inbox; `body` is the parsed
   * JSON of `request.body`.
   */
  async execute(input: {
    inboxOwner: string | null;
    body: unknown;
    request: SignedRequest;
  }): Promise<Result<InboxOutcome, InboxError>> {
    const parsed = parseIncomingActivity(input.body);
    if (!parsed.ok) return err({ type: 'invalid_request', message: parsed.error });
    const activity = parsed.value;
    // Before the owner is looked up and the signature read: a server L2 does not federate with gets the same answer
    // whoever it names, and makes L2 fetch and store nothing (API.md §4.3).
    const keyId = this.verifier.keyIdOf(input.request);
    if (!(await this.gate.federatesWith(keyId === null ? [activity.actor] : [activity.actor, keyId])))
      return err({ type: 'forbidden' });
    if (input.inboxOwner !== null) {
      const owner = await this.localProfile(input.inboxOwner);
      if (!owner) return err({ type: 'not_found' });
      if (owner.deletedAt !== null) return err({ type: 'gone' });
    }

    const verdict = await this.verifier.verify(input.request, activity.actor);
    if (!verdict.ok) return err(refusalOf(verdict));
    // The verifier promises it; checked here too, as the rule this use-case stands on.
    if (verdict.owner !== activity.actor || !sameOrigin(verdict.keyId, activity.actor))
      return err({
        type: 'unauthenticated',
        refusal: 'signer',
        message: 'The request is not signed by the activity’s actor.',
      });

    switch (activity.type) {
      case 'Follow':
        return decideFollow(this.decision, activity);
      case 'Undo':
        return ok((await this.undo(activity)) ? 'unfollowed' : 'ignored');
      case 'Delete':
        // Only the actor deleting itself concerns followers; deletes of its objects do not.
        if (idOf(activity.object) !== activity.actor) return ok('ignored');
        await this.followers.removeActor(activity.actor);
        await this.followRequests.removeActor(activity.actor);
        return ok('removed');
      case 'Block': {
        // An actor blocking a local user stops following them; nothing is sent back (Mastodon does the same).
        const blocked = this.urls.usernameOf(idOf(activity.object) ?? '');
        if (blocked === null) return ok('ignored');
        const ended = await this.followers.remove(activity.actor, { username: blocked as Username });
        // Their waiting follow request goes too: they will not follow the user they block.
        const dropped = await this.followRequests.remove(activity.actor, { username: blocked as Username });
        return ok(ended + dropped > 0 ? 'unfollowed' : 'ignored');
      }
      default:
        return ok('ignored');
    }
  }

  /**
   * Ends the Follow the Undo names — a follow, or a follow request still waiting: embedded (by its object, or its
   * id) or by id alone.
   */
  private async undo(activity: IncomingActivity): Promise<boolean> {
    const undone = activity.object;
    const followId = idOf(undone);
    if (typeof undone === 'string')
      return followId !== null && (await this.end(activity.actor, { followId }));
    if (typeOf(undone) !== 'Follow') return false;
    const inner = undone as Record<string, unknown>;
    // A Follow made by someone else cannot be undone by this actor.
    if (inner.actor !== undefined && idOf(inner.actor) !== activity.actor) return false;
    const target = idOf(inner.object);
    const username = target === null ? null : this.urls.usernameOf(target);
    if (username !== null && (await this.end(activity.actor, { username: username as Username })))
      return true;
    return followId !== null && (await this.end(activity.actor, { followId }));
  }

  /** Ends the follow and drops the request `match` names; whether there was either. */
  private async end(actor: string, match: FollowMatch): Promise<boolean> {
    const [follows, requests] = await Promise.all([
      this.followers.remove(actor, match),
      this.followRequests.remove(actor, match),
    ]);
    return follows + requests > 0;
  }

  private async localProfile(name: string): Promise<UserProfile | null> {
    const username = normaliseUsername(name);
    return username.ok ? this.users.findProfile(username.value) : null;
  }
}

/** A signature the verifier did not accept, as the inbox's answer. */
function refusalOf(verdict: SignatureRefused | SignatureRetryLater): InboxError {
  switch (verdict.kind) {
    case 'refused':
      return { type: 'unauthenticated', refusal: verdict.refusal, message: verdict.reason };
    case 'unavailable':
      return { type: 'unavailable', message: verdict.reason, retryAfterSeconds: verdict.retryAfterSeconds };
    case 'rate_limited':
      return {
        type: 'rate_limited',
        reason: 'key_budget',
        message: verdict.reason,
        retryAfterSeconds: verdict.retryAfterSeconds,
      };
  }
}
