import { AS_CONTEXT } from './activity-streams.js';
import { canParseUrl } from './url-parse.js';

/**
 * The activities a person's actions send to another actor (API.md §4.3 and §5): what Mastodon sends for the same
 * action, so that Mastodon, GoToSocial and Misskey act on them. Each is sent HTTP-signed, without an LD signature,
 * and is no entry of the activity log: their `@context` is the ActivityStreams one alone.
 */

/** A Follow as the peer sent it, reduced to what the answer repeats: its id (null when none), actor and object. */
export interface FollowSeen {
  readonly id: string | null;
  readonly actor: string;
  readonly object: string;
}

/** A Block as it was sent (`blockDocument`), and as its `Undo` repeats it. */
export interface BlockSent {
  readonly id: string;
  readonly actor: string;
  readonly object: string;
}

/** The id of a Reject: `<actor>#rejects/<id>`, `id` new for each. */
export const rejectId = (actor: string, id: string): string => `${actor}#rejects/${id}`;

/** The id of a Block: `<actor>#blocks/<id>`, `id` the block's own (its Undo is `<that>/undo`). */
export const blockId = (actor: string, id: string): string => `${actor}#blocks/${id}`;

/** The id of the `n`th Move of an actor: `<actor>#moves/<n>`. */
export const moveId = (actor: string, n: number): string => `${actor}#moves/${n}`;

const sameOrigin = (a: string, b: string): boolean =>
  canParseUrl(a) && canParseUrl(b) && new URL(a).origin === new URL(b).origin;

/**
 * Their Follow embedded in an Accept or a Reject, so that their server finds its follow by id or by actor and
 * object. Only its id, actor and object are repeated, never anything else the peer sent; an id on another origin
 * than its actor is not the actor's to give and is left out.
 */
function followObject(follow: FollowSeen): Record<string, unknown> {
  const id = follow.id !== null && sameOrigin(follow.id, follow.actor) ? follow.id : null;
  return { ...(id === null ? {} : { id }), type: 'Follow', actor: follow.actor, object: follow.object };
}

/** The Accept of a Follow (§5): their Follow embedded. */
export function acceptDocument(input: {
  id: string;
  actor: string;
  follow: FollowSeen;
}): Record<string, unknown> {
  const { id, actor, follow } = input;
  return { '@context': AS_CONTEXT, id, type: 'Accept', actor, object: followObject(follow) };
}

/**
 * The Reject of a Follow: a follow request turned down, a follower removed (Mastodon's "remove follower"), a blocked
 * or moved account's Follow answered. `id` is `rejectId(actor, …)`.
 */
export function rejectDocument(input: {
  id: string;
  actor: string;
  follow: FollowSeen;
}): Record<string, unknown> {
  const { id, actor, follow } = input;
  return { '@context': AS_CONTEXT, id, type: 'Reject', actor, object: followObject(follow) };
}

/** The Block of `block.object` by `block.actor`, as Mastodon sends one; `block.id` is `blockId(actor, …)`. */
export function blockDocument(block: BlockSent): Record<string, unknown> {
  return { '@context': AS_CONTEXT, ...blockObject(block) };
}

const blockObject = (block: BlockSent): Record<string, unknown> => ({
  id: block.id,
  type: 'Block',
  actor: block.actor,
  object: block.object,
});

/** The Undo of a Block (an unblock): id `<block id>/undo`, the Block embedded as it was sent, without `@context`. */
export function undoBlockDocument(block: BlockSent): Record<string, unknown> {
  return {
    '@context': AS_CONTEXT,
    id: `${block.id}/undo`,
    type: 'Undo',
    actor: block.actor,
    object: blockObject(block),
  };
}

/**
 * The `n`th Move of `actor` to `target`, sent to every follower's server: the actor moves itself (`object` is the
 * actor), as Mastodon sends it.
 */
export function moveDocument(input: { actor: string; target: string; n: number }): Record<string, unknown> {
  const { actor, target, n } = input;
  return { '@context': AS_CONTEXT, id: moveId(actor, n), type: 'Move', actor, object: actor, target };
}
