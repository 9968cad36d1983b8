// Rule: a password is checked the one way, wherever it is asked for (login, a password change, deleting the
// account): the attempt counts towards the login limits before bcrypt runs, an unknown, deleted or disabled user
// costs the same bcrypt work as a wrong password (and gets the same answer), and a right password clears the
// username's count.
import { hasNulCharacter, passwordBytesForHashing } from '../../domain/password.js';
import { err, ok, type Result } from '../../domain/result.js';
import { isActive, normaliseUsername, type User } from '../../domain/user.js';
import type { LoginThrottle } from '../ports/login-throttle.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { UserRepository } from '../ports/user-repository.js';

export type PasswordCheckError =
  | { readonly type: 'invalid_credentials' }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class PasswordCheck {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
  ) {}

  /** The active (neither deleted nor disabled) user whose password this is. */
  async check(input: {
    username: string;
    password: string;
    clientAddress: string;
  }): Promise<Result<User, PasswordCheckError>> {
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
    const matches = await this.hasher.verify(
      passwordBytesForHashing(input.password),
      user?.passwordHash ?? null,
    );
    if (!user || !matches) return err({ type: 'invalid_credentials' });
    await this.throttle.succeeded(throttleKey, input.clientAddress);
    return ok(await this.atCurrentCost(user, input.password));
  }

  /**
   * A hash made at another cost (BCRYPT_COST was raised since) is made again while the password is at hand, so old
   * accounts get the new cost and their logins take as long as everyone's.
   */
  private async atCurrentCost(user: User, password: string): Promise<User> {
    if (!this.hasher.needsRehash(user.passwordHash)) return user;
    const passwordHash = await this.hasher.hash(passwordBytesForHashing(password));
    const replaced = await this.users.rehashPassword(user.username, user.passwordHash, passwordHash);
    return replaced ? { ...user, passwordHash } : user;
  }
}
