// Rule: the inbox acts only on activities signed by their own actor. A Follow of a local user makes the actor a
// follower and answers it with an Accept signed by that user; an Undo of the Follow ends it; a Delete of the actor
// removes it everywhere; anything else is accepted and ignored. A disabled account's inbox still takes Undos and
// Deletes (so its followers stay right for when it is enabled), but a Follow of it is ignored. What one remote
// server can make L2 store and send is bounded (issue 23): one Accept waits per (user, follower) — a repeated Follow
// replaces it —, Follows are budgeted per actor and per origin, and Accepts waiting for one host are capped.
import type { Urls } from '../../../domain/activity-streams.js';
import {
  acceptDocument,
  idOf,
  parseIncomingActivity,
  sameOrigin,
  typeOf,
  type IncomingActivity,
} from '../../../domain/federation.js';
import { acceptJob, laneOf } from '../../../domain/jobs.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isActive, normaliseUsername, type UserProfile, type Username } from '../../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { FederationClient } from '../../ports/federation-client.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';
import type { IdGenerator } from '../../ports/id-generator.js';
import type { RateLimit, ThrottleVerdict } from '../../ports/rate-limit.js';
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
export const INBOX_REFUSALS = [...SIGNATURE_REFUSALS, 'unavailable', ...INBOX_LIMITS] as const;

/** The word operators count an inbox refusal under (null for refusals that are no concern of theirs: 400, 404, 410). */
export function refusalReason(error: InboxError): (typeof INBOX_REFUSALS)[number] | null {
  switch (error.type) {
    case 'unauthenticated':
      return error.refusal;
    case 'unavailable':
      return 'unavailable';
    case 'rate_limited':
      return error.reason;
    default:
      return null;
  }
}

/** What a peer is told to wait when the follower's actor could not be fetched now. */
const ACTOR_RETRY_AFTER_SECONDS = 60;

/** What one remote server may make the inbox store and queue. */
export interface FollowLimits {
  /** Follows one remote actor may send per window (counted once the actor is known and the followed user too). */
  readonly perActor: RateLimit;
  /** Follows one remote origin may send per window, all its actors together. */
  readonly perOrigin: RateLimit;
  /** Accepts that may wait, undelivered, for one host (lane); a Follow that would queue one more is refused. */
  readonly pendingAcceptsPerHost: number;
}

/**
 * What a peer whose host already has `pendingAcceptsPerHost` Accepts waiting is told to wait: the longest delay
 * between two attempts of one delivery (DEFAULT_RETRY_POLICY), by which the host's back-off has been tried again.
 */
export const LANE_FULL_RETRY_AFTER_SECONDS = 600;

/** What the activity did; every one of them answers 202. */
export type InboxOutcome = 'followed' | 'unfollowed' | 'removed' | 'ignored';

export class ReceiveActivity {
  constructor(
    private readonly users: UserRepository,
    private readonly followers: FollowerRepository,
    private readonly verifier: SignatureVerifier,
    private readonly client: FederationClient,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly urls: Urls,
    private readonly limits: FollowLimits,
  ) {}

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
        return this.follow(activity);
      case 'Undo':
        return ok((await this.undo(activity)) ? 'unfollowed' : 'ignored');
      case 'Delete':
        // Only the actor deleting itself concerns followers; deletes of its objects do not.
        if (idOf(activity.object) !== activity.actor) return ok('ignored');
        await this.followers.removeActor(activity.actor);
        return ok('removed');
      case 'Block': {
        // An actor blocking a local user stops following them; nothing is sent back (Mastodon does the same).
        const blocked = this.urls.usernameOf(idOf(activity.object) ?? '');
        if (blocked === null) return ok('ignored');
        const ended = await this.followers.remove(activity.actor, { username: blocked as Username });
        return ok(ended > 0 ? 'unfollowed' : 'ignored');
      }
      default:
        return ok('ignored');
    }
  }

  private async follow(activity: IncomingActivity): Promise<Result<InboxOutcome, InboxError>> {
    const target = idOf(activity.object);
    const followed = target === null ? null : this.urls.usernameOf(target);
    const user = followed === null ? null : await this.localUser(followed);
    if (!user) return ok('ignored');
    // Spent before the actor is fetched: a Follow over budget costs no outbound request and stores nothing.
    const budget = await this.spendFollowBudget(activity.actor);
    if (!budget.ok) return budget;
    const lookup = await this.client.fetchActor(activity.actor);
    if (!lookup.ok) {
      const message = `The follower’s actor could not be read: ${lookup.reason}.`;
      return err(
        lookup.retryable
          ? { type: 'unavailable', message, retryAfterSeconds: ACTOR_RETRY_AFTER_SECONDS }
          : { type: 'invalid_request', message },
      );
    }
    const remote = lookup.actor;
    // Deliveries go only to the follower's own server: an actor cannot point them at somebody else's.
    if (!sameOrigin(remote.inbox, remote.id))
      return err({ type: 'invalid_request', message: 'The follower’s inbox is not on its own server.' });
    const sharedInbox =
      remote.sharedInbox !== null && sameOrigin(remote.sharedInbox, remote.id) ? remote.sharedInbox : null;

    const now = this.clock.now();
    const actor = this.urls.actor(user);
    const accept = acceptDocument({
      id: `${actor}#accepts/${this.ids.newId()}`,
      actor,
      follow: { id: activity.id, actor: activity.actor, object: actor },
    });
    const outcome = await this.followers.add(
      {
        username: user,
        actor: activity.actor,
        inbox: remote.inbox,
        sharedInbox,
        followId: activity.id,
        followedAt: now,
      },
      acceptJob({ signer: user, inbox: remote.inbox, document: accept }, activity.actor),
      now,
      this.limits.pendingAcceptsPerHost,
    );
    if (outcome === 'lane_full') {
      return err({
        type: 'rate_limited',
        reason: 'lane_full',
        message: 'Too many Accepts wait undelivered for your server: send the Follow again later.',
        retryAfterSeconds: LANE_FULL_RETRY_AFTER_SECONDS,
      });
    }
    this.signal.jobsQueued();
    return ok('followed');
  }

  /** Counts a Follow against the budgets of its actor and of its origin (both, so each sees every Follow). */
  private async spendFollowBudget(actor: string): Promise<Result<void, InboxError>> {
    const [byActor, byOrigin] = await Promise.all([
      this.limits.perActor.consume(actor),
      this.limits.perOrigin.consume(laneOf(actor)),
    ]);
    if (!byActor.limited && !byOrigin.limited) return ok(undefined);
    const wait = (verdict: ThrottleVerdict) => (verdict.limited ? verdict.retryAfterSeconds : 0);
    return err({
      type: 'rate_limited',
      reason: byActor.limited ? 'actor_budget' : 'origin_budget',
      message: byActor.limited
        ? 'Too many Follows from this actor: send it again later.'
        : 'Too many Follows from your server: send it again later.',
      retryAfterSeconds: Math.max(wait(byActor), wait(byOrigin)),
    });
  }

  /** Ends the Follow the Undo names: embedded (by its object, or its id) or by id alone. */
  private async undo(activity: IncomingActivity): Promise<boolean> {
    const undone = activity.object;
    const followId = idOf(undone);
    if (typeof undone === 'string')
      return followId !== null && (await this.followers.remove(activity.actor, { followId })) > 0;
    if (typeOf(undone) !== 'Follow') return false;
    const inner = undone as Record<string, unknown>;
    // A Follow made by someone else cannot be undone by this actor.
    if (inner.actor !== undefined && idOf(inner.actor) !== activity.actor) return false;
    const target = idOf(inner.object);
    const username = target === null ? null : this.urls.usernameOf(target);
    if (
      username !== null &&
      (await this.followers.remove(activity.actor, { username: username as Username })) > 0
    )
      return true;
    return followId !== null && (await this.followers.remove(activity.actor, { followId })) > 0;
  }

  /** An active local account's name, or null (a deleted or disabled account gains no followers). */
  private async localUser(name: string): Promise<Username | null> {
    const profile = await this.localProfile(name);
    return profile && isActive(profile) ? profile.username : null;
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
