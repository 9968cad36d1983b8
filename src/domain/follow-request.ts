import type { Follower } from './follower.js';
import type { FollowSeen } from './follow-documents.js';
import type { Username } from './user.js';

/**
 * A Follow waiting for the person's decision (API.md §4.3 "Follow requests"): what a Follow of a user whose
 * `manually_approves_followers` is on becomes. Nothing is sent until they accept (an `Accept`) or reject (a `Reject`);
 * either decision removes the request.
 */
export interface FollowRequest {
  /** Opaque, the request's own: the `{id}` of its accept and reject routes. */
  readonly id: string;
  /** The local user asked. */
  readonly username: Username;
  /** The asking actor's id. */
  readonly actor: string;
  /** Its own inbox: where the decision goes. */
  readonly inbox: string;
  /** Its server's shared inbox, kept so that once accepted it is a follower like any other. */
  readonly sharedInbox: string | null;
  /** The id of their Follow (null when it had none), repeated in the Accept or Reject. */
  readonly followId: string | null;
  readonly requestedAt: Date;
}

/** What the person decided; the state the accept and reject routes answer. */
export type FollowRequestDecision = 'accepted' | 'rejected';

/**
 * A repeated Follow from an actor already waiting keeps one request: its id, place and time stay (the person's
 * list does not shuffle, links to it keep working), the Follow id and the inboxes are the latest ones.
 */
export const renewedRequest = (
  waiting: FollowRequest,
  again: Pick<FollowRequest, 'inbox' | 'sharedInbox' | 'followId'>,
): FollowRequest => ({
  ...waiting,
  inbox: again.inbox,
  sharedInbox: again.sharedInbox,
  followId: again.followId,
});

/** The follower an accepted request makes, followed from the moment it was accepted. */
export const followerOf = (request: FollowRequest, acceptedAt: Date): Follower => ({
  username: request.username,
  actor: request.actor,
  inbox: request.inbox,
  sharedInbox: request.sharedInbox,
  followId: request.followId,
  followedAt: acceptedAt,
});

/** Their Follow as the Accept or Reject repeats it; `localActor` is the asked user's actor id (its `object`). */
export const followSeenOf = (
  request: Pick<FollowRequest, 'actor' | 'followId'>,
  localActor: string,
): FollowSeen => ({ id: request.followId, actor: request.actor, object: localActor });

/**
 * How a Follow of a user is answered (§4.3, §5), once its actor is known: `reject` (a `Reject` queued, nothing
 * stored) when the user blocked the actor or has moved; `accept` (follower + `Accept`) when the actor already
 * follows — accepted again, also by a locked account — or the account is not locked; else `request` (stored,
 * nothing sent). A block is judged first: its stored inbox answers it without fetching the actor.
 */
export function followAnswer(state: {
  readonly blockedByUser: boolean;
  readonly moved: boolean;
  readonly alreadyFollows: boolean;
  readonly manuallyApprovesFollowers: boolean;
}): 'reject' | 'accept' | 'request' {
  if (state.blockedByUser || state.moved) return 'reject';
  if (state.alreadyFollows || !state.manuallyApprovesFollowers) return 'accept';
  return 'request';
}
