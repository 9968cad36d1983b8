// Rule: a password is checked the one way, wherever it is asked for (login, a password change, deleting the
// account): the attempt counts towards the login limits before bcrypt runs, an unknown, deleted or disabled user
// takes the time a wrong password takes — at most one compare, never more — and gets the same answer, and a right
// password clears the username's count. When too much hashing already waits, or the client's share of the line
// does, the attempt is refused at once (unavailable, with when to come back) instead of waiting for minutes.
import { hasNulCharacter, passwordBytesForHashing } from '../../domain/password.js';
import { err, ok, type Result } from '../../domain/result.js';
import { isActive, normaliseUsername, type User } from '../../domain/user.js';
import { OverloadedError } from '../ports/errors.js';
import type { LoginThrottle } from '../ports/login-throttle.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { UserRepository } from '../ports/user-repository.js';

/** Too much hashing waits already: nothing was checked; try again after `retryAfterSeconds`. */
export interface Unavailable {
  readonly type: 'unavailable';
  readonly retryAfterSeconds: number;
}

export type PasswordCheckError =
  | { readonly type: 'invalid_credentials' }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number }
  | Unavailable;

/** The refusal of a hasher that is too busy, as an outcome; any other failure is thrown on. */
export function unavailableWhenOverloaded(error: unknown): Unavailable {
  if (error instanceof OverloadedError)
    return { type: 'unavailable', retryAfterSeconds: error.retryAfterSeconds };
  throw error;
}

export class PasswordCheck {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
  ) {}

  /**
   * The active (neither deleted nor disabled) user whose password this is. With `firstFactorOnly`, a right password
   * does not clear the username's failures yet: a second step follows, and only its success does
   * ({@link succeeded}) — else whoever has the password could guess codes without limit, clearing the count with the
   * password between guesses.
   */
  async check(
    input: {
      username: string;
      password: string;
      clientAddress: string;
    },
    options: { readonly firstFactorOnly?: boolean } = {},
  ): Promise<Result<User, PasswordCheckError>> {
    // The throttle keys on the normalised name, so `Alice` and `alice` share one budget.
    const throttleKey = input.username.toLowerCase();
    // Counted before the password is checked, so parallel guesses cannot all pass while the first are hashing.
    const verdict = await this.throttle.attempt(throttleKey, input.clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });

    // bcrypt would stop at a NUL byte; the edges refuse such a password, and no password can contain one.
    if (hasNulCharacter(input.password)) return err({ type: 'invalid_credentials' });
    const username = normaliseUsername(input.username);
    const found = username.ok ? await this.users.findByUsername(username.value) : null;
    const user = found && isActive(found) ? found : null;
    let matches: boolean;
    try {
      matches = await this.hasher.verify(
        passwordBytesForHashing(input.password),
        user?.passwordHash ?? null,
        input.clientAddress,
      );
    } catch (error) {
      const refused = unavailableWhenOverloaded(error);
      await this.throttle.notChecked(throttleKey);
      return err(refused);
    }
    if (!user || !matches) return err({ type: 'invalid_credentials' });
    if (!options.firstFactorOnly) await this.throttle.succeeded(throttleKey, input.clientAddress);
    return ok(await this.atCurrentCost(user, input.password));
  }

  /** A sign-in that checked its password with `firstFactorOnly` is complete: its username's failures are cleared. */
  succeeded(username: string, clientAddress: string): Promise<void> {
    return this.throttle.succeeded(username.toLowerCase(), clientAddress);
  }

  /**
   * A hash made at another cost (BCRYPT_COST was raised since) is made again while the password is at hand, so old
   * accounts get the new cost and their logins take as long as everyone's.
   */
  private async atCurrentCost(user: User, password: string): Promise<User> {
    if (!this.hasher.needsRehash(user.passwordHash)) return user;
    let passwordHash: string;
    try {
      passwordHash = await this.hasher.hash(passwordBytesForHashing(password));
    } catch (error) {
      // Too busy to hash again now: the password was right, so the login stands; a later one rehashes.
      unavailableWhenOverloaded(error);
      return user;
    }
    const replaced = await this.users.rehashPassword(user.username, user.passwordHash, passwordHash);
    return replaced ? { ...user, passwordHash } : user;
  }
}
