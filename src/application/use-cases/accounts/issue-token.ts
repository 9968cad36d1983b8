// Rule: valid credentials get a 30-day session token. An unknown user and a wrong password get the same answer
// after the same bcrypt work; once a username or an address has used up its attempts, a login is refused before
// bcrypt runs.
import { ok, type Result } from '../../../domain/result.js';
import type { PasswordCheck, PasswordCheckError } from '../../services/password-check.js';
import type { IssuedTokenView, TokenIssuer } from '../../services/token-issuer.js';

export interface IssueTokenInput {
  readonly username: string;
  readonly password: string;
  readonly clientAddress: string;
}

export type IssueTokenError = PasswordCheckError;

export class IssueToken {
  constructor(
    private readonly passwords: PasswordCheck,
    private readonly issuer: TokenIssuer,
  ) {}

  async execute(input: IssueTokenInput): Promise<Result<IssuedTokenView, IssueTokenError>> {
    const user = await this.passwords.check(input);
    if (!user.ok) return user;
    return ok(await this.issuer.issueSession(user.value.username));
  }
}
