import { err, ok, type Result } from './result.js';

/**
 * Where a person's fediverse presence has moved (API.md §4.3 "Moving out"). While `movedTo` is set the actor shows
 * `movedTo`, asset writes and new Follows are refused; signing in, tokens and L1 servers are not affected.
 */
export interface AccountMove {
  /** The target actor's id while moved, else null. */
  readonly movedTo: string | null;
  /** When the current move was made, else null. */
  readonly movedAt: Date | null;
  /** When the last move was made, kept by a cancel: the cool-down runs from it. */
  readonly lastMovedAt: Date | null;
  /** How many moves were made: the `n` of the next Move's id (`<actor>#moves/<n>`) is this plus one. */
  readonly moves: number;
}

/** An account that never moved. */
export const NO_MOVE: AccountMove = { movedTo: null, movedAt: null, lastMovedAt: null, moves: 0 };

/** Mastodon's cool-down: a move may follow the last one only after 30 days (a cancel does not reset it). */
export const MOVE_COOLDOWN_MS = 30 * 86_400_000;

export const isMoved = (move: AccountMove): boolean => move.movedTo !== null;

/** Seconds until a move is allowed again (the `Retry-After`), 0 when it is now; whole seconds, rounded up. */
export function cooldownLeftSeconds(move: Pick<AccountMove, 'lastMovedAt'>, now: Date): number {
  if (move.lastMovedAt === null) return 0;
  const left = move.lastMovedAt.getTime() + MOVE_COOLDOWN_MS - now.getTime();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** The target actor as read afresh: its id, the aliases it lists, where it moved itself (null: nowhere). */
export interface MoveTarget {
  readonly id: string;
  readonly alsoKnownAs: readonly string[];
  readonly movedTo: string | null;
}

/** Why a resolved target cannot be moved to; each is `400 invalid_request` with the path `target`. */
export type MoveTargetRefusal = 'self' | 'target_moved' | 'alias_missing';

/**
 * Whether `ownActor` may move to `target` (§4.3): not to itself, not to an account that moved itself, and only to
 * one whose `alsoKnownAs` lists this actor — Mastodon and GoToSocial check the same before they follow the Move.
 */
export function checkMoveTarget(ownActor: string, target: MoveTarget): Result<string, MoveTargetRefusal> {
  if (target.id === ownActor) return err('self');
  if (target.movedTo !== null) return err('target_moved');
  if (!target.alsoKnownAs.includes(ownActor)) return err('alias_missing');
  return ok(target.id);
}

/** The message a refused move target shows beside the `target` field. */
export const MOVE_TARGET_MESSAGES: Readonly<Record<MoveTargetRefusal, string>> = {
  self: 'An account cannot move to itself.',
  target_moved: 'That account has moved itself; name the account it moved to.',
  alias_missing: 'That account does not list this one as an alias (alsoKnownAs): add it there first.',
};

/**
 * The state a move to `target` at `now` makes, or, within the cool-down, how many seconds are left (`429` with
 * `Retry-After`). Checked before the target is resolved, so a refused move costs no request.
 */
export function moveTo(
  move: AccountMove,
  target: string,
  now: Date,
): Result<AccountMove, { readonly retryAfterSeconds: number }> {
  const left = cooldownLeftSeconds(move, now);
  if (left > 0) return err({ retryAfterSeconds: left });
  return ok({ movedTo: target, movedAt: now, lastMovedAt: now, moves: move.moves + 1 });
}

/** Whether a move is allowed at `now` (the cool-down is over, or there was no move). */
export const mayMove = (move: AccountMove, now: Date): boolean => cooldownLeftSeconds(move, now) === 0;

/**
 * The state a cancel makes: `movedTo` gone, the cool-down and the count of moves kept. Null when not moved: then
 * nothing is written or sent.
 */
export const cancelledMove = (move: AccountMove): AccountMove | null =>
  isMoved(move) ? { ...move, movedTo: null, movedAt: null } : null;
