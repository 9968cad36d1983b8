// Rule: how a Follow of a local user is answered (API.md §4.3, §5). Its budgets are spent before anything is fetched;
// then its actor is read, and `followAnswer` decides: a follower (or an account that approves nobody by hand) is
// accepted — follower stored, Accept queued, one write —, a locked account's Follow becomes a request (stored,
// nothing sent), and a blocked or moved account's is rejected (a Reject queued, nothing stored).
import { isMoved } from '../../../domain/account-move.js';
import type { Urls } from '../../../domain/activity-streams.js';
import { idOf, sameOrigin, type IncomingActivity } from '../../../domain/federation.js';
import { acceptDocument, rejectDocument, rejectId } from '../../../domain/follow-documents.js';
import { followAnswer } from '../../../domain/follow-request.js';
import { acceptJob, laneOf, rejectJob } from '../../../domain/jobs.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isActive, normaliseUsername, type UserProfile } from '../../../domain/user.js';
import type { ActorBlockStore } from '../../ports/actor-block-store.js';
import type { Clock } from '../../ports/clock.js';
import type { FederationClient } from '../../ports/federation-client.js';
import type { FollowRequestStore } from '../../ports/follow-request-store.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';
import type { IdGenerator } from '../../ports/id-generator.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { RateLimit, ThrottleVerdict } from '../../ports/rate-limit.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { InboxError, InboxOutcome } from './receive-activity.js';

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

/** The follower's actor as the decision needs it: its own inbox, and its shared inbox when on its own server. */
interface Asker {
  readonly id: string;
  readonly inbox: string;
  readonly sharedInbox: string | null;
}

/** What deciding a Follow reads and writes. */
export interface FollowPorts {
  readonly users: UserRepository;
  readonly followers: FollowerRepository;
  readonly followRequests: FollowRequestStore;
  readonly actorBlocks: ActorBlockStore;
  readonly jobs: JobQueue;
  readonly client: FederationClient;
  readonly signal: WorkSignal;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly urls: Urls;
  readonly limits: FollowLimits;
}

/** Decides a Follow of a local user (see the rule above); `ignored` when it names none that is active. */
export async function decideFollow(
  ports: FollowPorts,
  activity: IncomingActivity,
): Promise<Result<InboxOutcome, InboxError>> {
  const target = idOf(activity.object);
  const followed = target === null ? null : ports.urls.usernameOf(target);
  const user = followed === null ? null : await activeUser(ports, followed);
  if (!user) return ok('ignored');
  // Spent before the actor is fetched: a Follow over budget costs no outbound request and stores nothing.
  const budget = await spendFollowBudget(ports, activity.actor);
  if (!budget.ok) return budget;
  // A blocked actor is answered at the inbox its block stored: its actor is not fetched, nothing is stored.
  const block = await ports.actorBlocks.find(user.username, activity.actor);
  if (block !== null)
    return reject(ports, activity, user, { id: block.actor, inbox: block.inbox, sharedInbox: null });
  const found = await askerOf(ports, activity.actor);
  if (!found.ok) return found;

  const alreadyFollows = (await ports.followers.find(user.username, activity.actor)) !== null;
  const answer = followAnswer({
    blockedByUser: false, // answered above, before any fetch
    moved: isMoved(user.move),
    alreadyFollows,
    manuallyApprovesFollowers: user.profile.manuallyApprovesFollowers,
  });
  switch (answer) {
    case 'accept':
      return accept(ports, activity, user, found.value);
    case 'request':
      return request(ports, activity, user, found.value);
    case 'reject':
      return reject(ports, activity, user, found.value);
  }
}

/** Follower stored and Accept queued, in one write (§5). */
async function accept(
  ports: FollowPorts,
  activity: IncomingActivity,
  user: UserProfile,
  asker: Asker,
): Promise<Result<InboxOutcome, InboxError>> {
  const now = ports.clock.now();
  const actor = ports.urls.actor(user.username);
  const accept = acceptDocument({
    id: `${actor}#accepts/${ports.ids.newId()}`,
    actor,
    follow: { id: activity.id, actor: activity.actor, object: actor },
  });
  const outcome = await ports.followers.add(
    {
      username: user.username,
      actor: activity.actor,
      inbox: asker.inbox,
      sharedInbox: asker.sharedInbox,
      followId: activity.id,
      followedAt: now,
    },
    acceptJob({ signer: user.username, inbox: asker.inbox, document: accept }, activity.actor),
    now,
    ports.limits.pendingAcceptsPerHost,
  );
  // A domain block covering the actor, seen in the store's write: nothing stored or sent, and the same 403 the
  // inbox gives such an actor up front (here only a block made while the actor was being fetched is met).
  if (outcome === 'shut_out') return err({ type: 'forbidden' });
  if (outcome === 'lane_full') {
    return err({
      type: 'rate_limited',
      reason: 'lane_full',
      message: 'Too many Accepts wait undelivered for your server: send the Follow again later.',
      retryAfterSeconds: LANE_FULL_RETRY_AFTER_SECONDS,
    });
  }
  ports.signal.jobsQueued();
  return ok('followed');
}

/** A locked account's Follow: kept for the person's decision, nothing sent (a repeat keeps one request). */
async function request(
  ports: FollowPorts,
  activity: IncomingActivity,
  user: UserProfile,
  asker: Asker,
): Promise<Result<InboxOutcome, InboxError>> {
  await ports.followRequests.add({
    id: ports.ids.newId(),
    username: user.username,
    actor: activity.actor,
    inbox: asker.inbox,
    sharedInbox: asker.sharedInbox,
    followId: activity.id,
    requestedAt: ports.clock.now(),
  });
  return ok('requested');
}

/** A Reject of the Follow queued to the actor's own inbox; nothing stored. */
async function reject(
  ports: FollowPorts,
  activity: IncomingActivity,
  user: UserProfile,
  asker: Asker,
): Promise<Result<InboxOutcome, InboxError>> {
  const actor = ports.urls.actor(user.username);
  const document = rejectDocument({
    id: rejectId(actor, ports.ids.newId()),
    actor,
    follow: { id: activity.id, actor: activity.actor, object: actor },
  });
  await ports.jobs.enqueue(
    [rejectJob({ signer: user.username, inbox: asker.inbox, document }, activity.actor)],
    ports.clock.now(),
  );
  ports.signal.jobsQueued();
  return ok('rejected');
}

/** The follower's actor, read from its server; its inbox must be on that server. */
async function askerOf(ports: FollowPorts, actorId: string): Promise<Result<Asker, InboxError>> {
  const lookup = await ports.client.fetchActor(actorId);
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
  return ok({ id: remote.id, inbox: remote.inbox, sharedInbox });
}

/** Counts a Follow against the budgets of its actor and of its origin (both, so each sees every Follow). */
async function spendFollowBudget(ports: FollowPorts, actor: string): Promise<Result<void, InboxError>> {
  const [byActor, byOrigin] = await Promise.all([
    ports.limits.perActor.consume(actor),
    ports.limits.perOrigin.consume(laneOf(actor)),
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

/** An active local account, or null (a deleted or disabled account gains no followers). */
async function activeUser(ports: FollowPorts, name: string): Promise<UserProfile | null> {
  const username = normaliseUsername(name);
  const profile = username.ok ? await ports.users.findProfile(username.value) : null;
  return profile && isActive(profile) ? profile : null;
}
