// Rule: a new account gets a unique lower-cased username, a bcrypt hash of the first 72 password bytes, its own
// RSA-2048 key pair for signing activities, and a signed-in session — the account and the session's record written
// together, so no account exists whose client was told registration failed. One client address registers a
// limited number of accounts per window.
import { checkNewPassword, newPasswordMessage, passwordBytesForHashing } from '../../../domain/password.js';
import { NO_MOVE } from '../../../domain/account-move.js';
import { EMPTY_PROFILE } from '../../../domain/profile.js';
import { PASSWORD_ONLY } from '../../../domain/sign-in-methods.js';
import { err, ok, type Result } from '../../../domain/result.js';
import {
  normaliseUsername,
  profileOf,
  USERNAME_RULE,
  type User,
  type UserProfile,
} from '../../../domain/user.js';
import type { Clock } from '../../ports/clock.js';
import type { KeyPairGenerator } from '../../ports/key-pair-generator.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RateLimit } from '../../ports/rate-limit.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { IssuedTokenView, TokenIssuer } from '../../services/token-issuer.js';

export interface RegisterUserInput {
  readonly username: string;
  readonly password: string;
  /** The client's address as the rate limits count it. */
  readonly clientAddress: string;
}

export type RegisterUserError =
  | { readonly type: 'invalid_request'; readonly path: 'username' | 'password'; readonly message: string }
  | { readonly type: 'username_taken'; readonly username: string }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class RegisterUser {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly keys: KeyPairGenerator,
    private readonly issuer: TokenIssuer,
    private readonly clock: Clock,
    private readonly registrations: RateLimit,
  ) {}

  async execute(
    input: RegisterUserInput,
  ): Promise<Result<{ user: UserProfile; session: IssuedTokenView }, RegisterUserError>> {
    const username = normaliseUsername(input.username);
    if (!username.ok) {
      return err({ type: 'invalid_request', path: 'username', message: USERNAME_RULE.message });
    }
    const password = checkNewPassword(input.password);
    if (!password.ok) {
      return err({ type: 'invalid_request', path: 'password', message: newPasswordMessage(password.error) });
    }
    // Cheap early answer for the common case; the store's uniqueness decides the race.
    if (await this.users.findByUsername(username.value))
      return err({ type: 'username_taken', username: username.value });
    // Counted once the request would cost a bcrypt hash and an RSA key pair: a typo costs nothing.
    const verdict = await this.registrations.consume(input.clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });

    const [passwordHash, keyPair] = await Promise.all([
      this.hasher.hash(passwordBytesForHashing(password.value)),
      this.keys.generate(),
    ]);
    const user: User = {
      username: username.value,
      passwordHash,
      ...keyPair,
      createdAt: this.clock.now(),
      deletedAt: null,
      disabledAt: null,
      profile: EMPTY_PROFILE,
      profileVersion: 0,
      move: NO_MOVE,
    };
    const session = this.issuer.signSession(user.username, PASSWORD_ONLY);
    if ((await this.users.create(user, session.record)) === 'taken')
      return err({ type: 'username_taken', username: username.value });
    return ok({ user: profileOf(user), session: session.view });
  }
}
