import type { ActorBlock } from '../../domain/actor-block.js';
import type { Username } from '../../domain/user.js';
import type { NewJob } from './job-queue.js';
import type { SeekableList } from './positioned.js';

export interface ActorBlockFilter {
  /** The local user who blocked. */
  readonly username: Username;
}

/**
 * What a block would end: the actor's follow of the user, or else its follow request waiting for the user's decision
 * (its own inbox and the id of its Follow, either way).
 */
export interface FollowEnded {
  readonly actor: string;
  readonly inbox: string;
  /** The id of their Follow (null when it had none), repeated in the Reject. */
  readonly followId: string | null;
}

/** The jobs a block queues: the Reject of their Follow (when they follow or ask to) and the Block itself. */
export interface BlockJobs {
  /** Queued only when the write ends a follow or drops a request of theirs; null when the caller knew of none. */
  readonly reject: NewJob | null;
  readonly block: NewJob;
}

/** What `block` did: stored the block (`created`), or found the actor already blocked (`exists`, nothing written). */
export interface BlockOutcome {
  readonly outcome: 'created' | 'exists';
  /** The new block, or the one stored before. */
  readonly block: ActorBlock;
}

/**
 * The remote actors each local user blocked (API.md §4.3 "Blocking an actor"), listed newest first. A block ends
 * the actor's follow of the user and drops its waiting follow request in the same write that stores it, and queues
 * what the actor is sent.
 */
export interface ActorBlockStore extends SeekableList<ActorBlock, ActorBlockFilter> {
  /**
   * One write: `block` stored; `block.actor` removed from `block.username`'s followers and its follow request to
   * them dropped; `jobs.reject` queued only if a follower or a request was removed (before `jobs.block`);
   * `jobs.block` queued. When the user already blocks that actor: `exists` with the block stored before, and nothing
   * at all is written (no job queued, no follower or request removed).
   */
  block(block: ActorBlock, jobs: BlockJobs, now: Date): Promise<BlockOutcome>;
  /**
   * The follow of `username` by `actor` a block would end: the follower, or else the actor's waiting follow request;
   * null when it neither follows nor asks to.
   */
  followOf(username: Username, actor: string): Promise<FollowEnded | null>;
  /** The user's block of `actor`, or null when they do not block it. */
  find(username: Username, actor: string): Promise<ActorBlock | null>;
  /** The user's block with this id, or null (unknown, or another user's). */
  findById(username: Username, id: string): Promise<ActorBlock | null>;
  /** One write: the user's block `id` removed and `undo` queued. False (nothing written) when there is none. */
  unblock(username: Username, id: string, undo: NewJob, now: Date): Promise<boolean>;
}
