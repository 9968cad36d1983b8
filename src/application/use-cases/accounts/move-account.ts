// Rule (API.md §4.3 "Moving out"): a person moves their followers to another account — on L2 or elsewhere — with
// their own session and their password, judged in this order: a scoped token (403), the password (401, counted
// towards the login limits, the same proof as a password change), the 30-day cool-down (429), the target's form
// (400), then the target read afresh, which must be an actor, not this one, not moved itself, and list this actor
// in its `alsoKnownAs` (400, path `target`). Nothing is written or sent until all of that holds; then ONE profile
// write stores the move (the actor shows `movedTo` at its next version), queues the Update of the actor and then a
// Move for every follower's server.
import {
  checkMoveTarget,
  cooldownLeftSeconds,
  MOVE_TARGET_MESSAGES,
  moveTo,
  type AccountMove,
} from '../../../domain/account-move.js';
import type { Urls } from '../../../domain/activity-streams.js';
import { parseActorName } from '../../../domain/actor-name.js';
import { moveDocument } from '../../../domain/follow-documents.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import { isActive, type UserProfile } from '../../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { FollowerRepository } from '../../ports/follower-repository.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { ActorResolution } from '../../services/actor-resolution.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { PasswordCheck, PasswordCheckError } from '../../services/password-check.js';
import { writeMove } from './move-state.js';

export type MoveAccountError =
  | PasswordCheckError
  | { readonly type: 'forbidden' }
  /** A move was made less than 30 days ago (a cancel does not reset it). */
  | { readonly type: 'move_cooldown'; readonly retryAfterSeconds: number }
  /** The target's lookups went past LOOKUPS_PER_USER. */
  | { readonly type: 'lookups_limited'; readonly retryAfterSeconds: number }
  | { readonly type: 'invalid_request'; readonly path: string; readonly message: string };

export interface MoveMade {
  readonly movedTo: string;
  readonly movedAt: Date;
  /** How many followers the Move was queued for (their servers once each). */
  readonly followers: number;
}

const PATH = 'target';

export class MoveAccount {
  constructor(
    private readonly passwords: PasswordCheck,
    private readonly users: UserRepository,
    private readonly followers: FollowerRepository,
    private readonly resolution: Pick<ActorResolution, 'resolve'>,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly urls: Urls,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    clientAddress: string;
    currentPassword: string;
    /** As typed: an actor URL or @user@host; absent when the request named none. */
    target: string | undefined;
  }): Promise<Result<MoveMade, MoveAccountError>> {
    const { session } = input;
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const checked = await this.passwords.check({
      username: session.claims.username,
      password: input.currentPassword,
      clientAddress: input.clientAddress,
    });
    if (!checked.ok) return checked;
    const user = await this.users.findProfile(checked.value.username);
    if (!user || !isActive(user)) return err({ type: 'invalid_credentials' });
    const cooling = cooldownLeftSeconds(user.move, this.clock.now());
    if (cooling > 0) return err({ type: 'move_cooldown', retryAfterSeconds: cooling });
    if (input.target === undefined)
      return err({ type: 'invalid_request', path: PATH, message: 'Name the account to move to.' });
    const name = parseActorName(input.target);
    if (!name.ok) return err({ type: 'invalid_request', path: PATH, message: name.error });

    const resolved = await this.resolution.resolve(user.username, name.value, PATH);
    if (!resolved.ok)
      return err(
        resolved.error.type === 'rate_limited'
          ? { type: 'lookups_limited', retryAfterSeconds: resolved.error.retryAfterSeconds }
          : resolved.error,
      );
    const target = checkMoveTarget(this.urls.actor(user.username), resolved.value);
    if (!target.ok)
      return err({ type: 'invalid_request', path: PATH, message: MOVE_TARGET_MESSAGES[target.error] });

    const moved = await writeMove(this.users, user, this.clock, (current) =>
      this.moveOf(current, target.value),
    );
    // The account went while the target was read: as for a password check of a gone account.
    if (!moved.ok)
      return err(moved.error.type === 'not_found' ? { type: 'invalid_credentials' } : moved.error);
    this.signal.jobsQueued();
    const { move } = moved.value.user;
    return ok({
      movedTo: move.movedTo!,
      movedAt: move.movedAt!,
      followers: await this.followers.count({ username: user.username }),
    });
  }

  /** The move from `current` (read again when a write raced it): the cool-down judged on that read. */
  private moveOf(
    current: UserProfile,
    target: string,
  ): Result<{ state: AccountMove; document: Record<string, unknown> }, MoveAccountError> {
    const state = moveTo(current.move, target, this.clock.now());
    if (!state.ok) return err({ type: 'move_cooldown', ...state.error });
    const actor = this.urls.actor(current.username);
    return ok({ state: state.value, document: moveDocument({ actor, target, n: state.value.moves }) });
  }
}
