// Rule: valid credentials get a 30-day session token. An unknown user and a wrong password get the same answer
// after the same bcrypt work; once a username or an address has used up its attempts, a login is refused before
// bcrypt runs.
import { passwordBytesForHashing } from '../../../domain/password.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { normaliseUsername } from '../../../domain/user.js';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { IssuedTokenView, TokenIssuer } from '../../services/token-issuer.js';

export interface IssueTokenInput {
  readonly username: string;
  readonly password: string;
  readonly clientAddress: string;
}

export type IssueTokenError =
  | { readonly type: 'invalid_credentials' }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class IssueToken {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly issuer: TokenIssuer,
  ) {}

  async execute(input: IssueTokenInput): Promise<Result<IssuedTokenView, IssueTokenError>> {
    // The throttle keys on the normalised name, so `Alice` and `alice` share one budget.
    const throttleKey = input.username.toLowerCase();
    // Counted before the password is checked, so parallel guesses cannot all pass while the first are hashing.
    const verdict = await this.throttle.attempt(throttleKey, input.clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });

    const username = normaliseUsername(input.username);
    const user = username.ok ? await this.users.findByUsername(username.value) : null;
    const matches = await this.hasher.verify(
      passwordBytesForHashing(input.password),
      user?.passwordHash ?? null,
    );
    if (!user || !matches) return err({ type: 'invalid_credentials' });
    await this.throttle.succeeded(throttleKey, input.clientAddress);
    return ok(await this.issuer.issueSession(user.username));
  }
}
