import { blockId, type BlockSent } from './follow-documents.js';
import { err, ok, type Result } from './result.js';
import type { Username } from './user.js';

/**
 * A person's block of a remote actor (API.md §4.3 "Blocking an actor"): the actor stops following them, a later
 * Follow of theirs is answered with a `Reject` and nothing is stored, and the actor is sent a `Block` (an `Undo` of it
 * when unblocked).
 */
export interface ActorBlock {
  /** Opaque, the block's own: the `{id}` of its unblock route and the tail of the Block's id. */
  readonly id: string;
  /** The local user who blocked. */
  readonly username: Username;
  /** The blocked actor's id, as resolved. */
  readonly actor: string;
  /** Its own inbox, kept so that a later Reject or the Undo needs no fetch. */
  readonly inbox: string;
  readonly createdAt: Date;
}

/** The Block a block sends (and its Undo repeats): `localActor` is the blocking user's actor id. */
export const blockSentOf = (block: Pick<ActorBlock, 'id' | 'actor'>, localActor: string): BlockSent => ({
  id: blockId(localActor, block.id),
  actor: localActor,
  object: block.actor,
});

/** Why a resolved actor cannot be blocked; the refusal is `400 invalid_request` with the path `actor`. */
export type BlockTargetRefusal = 'self' | 'local_user';

/**
 * Whether the actor a person named may be blocked: not themself and no user of this L2 (a local user follows no
 * one, so there is nothing to block; the person's own actor least of all). Reachability, being an actor and the
 * domain rules are the resolution's to judge.
 */
export function checkBlockTarget(target: {
  readonly id: string;
  readonly local: boolean;
  readonly ownActor: string;
}): Result<string, BlockTargetRefusal> {
  if (target.id === target.ownActor) return err('self');
  if (target.local) return err('local_user');
  return ok(target.id);
}

/** The message a refused block target shows beside the `actor` field. */
export const BLOCK_TARGET_MESSAGES: Readonly<Record<BlockTargetRefusal, string>> = {
  self: 'You cannot block yourself.',
  local_user: 'Users of this server follow no one: there is nothing to block.',
};
