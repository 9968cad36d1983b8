import type { FollowRequest } from '../../domain/follow-request.js';
import type { Username } from '../../domain/user.js';
import type { FollowMatch } from './follower-repository.js';
import type { NewJob } from './job-queue.js';
import type { SeekableList } from './positioned.js';

export interface FollowRequestFilter {
  /** The local user asked. */
  readonly username: Username;
}

/** What `add` did: stored a new request, or renewed the one the actor already had waiting. */
export type FollowRequestOutcome = 'added' | 'updated';

/** The job a decision queues, made from the request as the store holds it when the decision is written. */
export type DecisionJob = (request: FollowRequest) => NewJob;

/**
 * Follows waiting for the person's decision (API.md §4.3 "Follow requests"), listed newest first. One request per
 * (user, actor); deciding one removes it in the same write that stores its follower or queues its answer.
 */
export interface FollowRequestStore extends SeekableList<FollowRequest, FollowRequestFilter> {
  /**
   * Stores `request`; an actor already waiting keeps its request — its id, place and time — with the Follow id and
   * inboxes of `request` (renewedRequest): `'updated'`.
   */
  add(request: FollowRequest): Promise<FollowRequestOutcome>;
  /** The user's request of that id, or null (unknown, another user's, or decided). */
  find(username: Username, id: string): Promise<FollowRequest | null>;
  /**
   * Accepts the request, in one write: it is removed, its actor stored as a follower (followed from `now`; one that
   * already follows keeps its place, as FollowerRepository.add) and `accept(request)` queued. Null, nothing written:
   * no such request of the user.
   */
  accept(username: Username, id: string, accept: DecisionJob, now: Date): Promise<FollowRequest | null>;
  /** Rejects the request, in one write: it is removed and `reject(request)` queued. Null as `accept`. */
  reject(username: Username, id: string, reject: DecisionJob, now: Date): Promise<FollowRequest | null>;
  /**
   * Accepts up to `limit` of the user's oldest requests in one write, as `accept` accepts one, and returns how many
   * (the caller repeats until 0: an account unlocked with many waiting does not hold the store in one write).
   */
  acceptAll(username: Username, accept: DecisionJob, now: Date, limit: number): Promise<number>;
  /** Removes `actor`'s request that `match` names (an Undo of its Follow); returns how many were removed. */
  remove(actor: string, match: FollowMatch): Promise<number>;
  /** Removes every request of `actor` (it was deleted); returns how many. */
  removeActor(actor: string): Promise<number>;
}
