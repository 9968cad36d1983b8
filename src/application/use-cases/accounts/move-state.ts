// Rule (API.md §4.3 "Moving out"): a person reads where their account moved (and the aliases it lists), and may
// cancel a move without their password — `movedTo` leaves the actor, an Update tells the followers, asset writes and
// Follows work again; the cool-down stays. Both with their own session (a scoped token: 403). Every move state is
// written as a profile write (UserRepository.updateProfile), so the actor's version moves on and every cached copy
// of it is replaced before anything is sent.
import { cancelledMove, type AccountMove } from '../../../domain/account-move.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import { isActive, type UserProfile } from '../../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';

/** What GET /auth/move shows. */
export interface MoveState {
  readonly movedTo: string | null;
  readonly movedAt: Date | null;
  readonly alsoKnownAs: readonly string[];
}

export type MoveStateError = { readonly type: 'forbidden' } | { readonly type: 'not_found' };

/** How often a move is tried again on a fresher read when another write changed the profile meanwhile. */
const MAX_ATTEMPTS = 10;

const stateOf = (user: UserProfile): MoveState => ({
  movedTo: user.move.movedTo,
  movedAt: user.move.movedAt,
  alsoKnownAs: user.profile.alsoKnownAs,
});

/**
 * Writes the move `next` makes of the user as read (read again after a conflicting write, `next` judging it anew):
 * the profile as it is, the move state, and — when `next` gives one — the Move for every follower's server, in one
 * profile write. Answers the user as written (as read when `next` says null: nothing to write), or `next`'s refusal,
 * or not_found once the account is gone.
 */
export async function writeMove<E>(
  users: UserRepository,
  first: UserProfile,
  clock: Clock,
  next: (user: UserProfile) => Result<{ state: AccountMove; document?: Record<string, unknown> } | null, E>,
): Promise<Result<{ user: UserProfile; written: boolean }, E | { readonly type: 'not_found' }>> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const user = attempt === 0 ? first : await users.findProfile(first.username);
    if (!user || !isActive(user)) return err({ type: 'not_found' });
    const change = next(user);
    if (!change.ok) return change;
    if (change.value === null) return ok({ user, written: false });
    const { state, document } = change.value;
    const outcome = await users.updateProfile(
      {
        username: user.username,
        expectedVersion: user.profileVersion,
        profile: user.profile,
        move: state,
        ...(document ? { moveDocument: document } : {}),
      },
      clock.now(),
    );
    if (outcome === 'not_found') return err({ type: 'not_found' });
    if (outcome === 'updated') return ok({ user: { ...user, move: state }, written: true });
  }
  throw new Error(`the profile of ${first.username} kept changing under ${MAX_ATTEMPTS} writes`);
}

/** The user's own live account for a session, or why not. */
async function ownAccount(
  users: UserRepository,
  session: AuthenticatedToken,
): Promise<Result<UserProfile, MoveStateError>> {
  if (isScoped(session.claims)) return err({ type: 'forbidden' });
  const user = await users.findProfile(session.claims.username);
  return user && isActive(user) ? ok(user) : err({ type: 'not_found' });
}

export class GetMoveState {
  constructor(private readonly users: UserRepository) {}

  async execute(session: AuthenticatedToken): Promise<Result<MoveState, MoveStateError>> {
    const user = await ownAccount(this.users, session);
    return user.ok ? ok(stateOf(user.value)) : user;
  }
}

export class CancelMove {
  constructor(
    private readonly users: UserRepository,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
  ) {}

  /** The state after the cancel; not moved: the state as it is, nothing written or sent. */
  async execute(session: AuthenticatedToken): Promise<Result<MoveState, MoveStateError>> {
    const user = await ownAccount(this.users, session);
    if (!user.ok) return user;
    const written = await writeMove(this.users, user.value, this.clock, (current) => {
      const state = cancelledMove(current.move);
      return ok(state && { state });
    });
    if (!written.ok) return written;
    if (written.value.written) this.signal.jobsQueued();
    return ok(stateOf(written.value.user));
  }
}
