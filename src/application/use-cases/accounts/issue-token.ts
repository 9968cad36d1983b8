// Rule: valid credentials get a 30-day session token. An unknown user and a wrong password get the same answer
// after the same bcrypt work; once a username or an address has used up its attempts, a login is refused before
// bcrypt runs. A login that checked a password the account no longer has (changed, or the account deleted or
// disabled, while bcrypt ran) gets no token.
import { issuedTokenOf } from '../../../domain/revocation.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isActive } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { PasswordCheck, PasswordCheckError } from '../../services/password-check.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';
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
    private readonly users: UserRepository,
    private readonly writer: RevocationWriter,
  ) {}

  async execute(input: IssueTokenInput): Promise<Result<IssuedTokenView, IssueTokenError>> {
    const checked = await this.passwords.check(input);
    if (!checked.ok) return checked;
    const user = checked.value;
    const session = await this.issuer.issueSession(user.username);
    // Read again once the token is on record: a password change, deletion or disabling that wrote before this read
    // revokes the token here; one that writes after it finds the token in its own sweep of the user's tokens.
    const now = await this.users.findByUsername(user.username);
    if (!now || !isActive(now) || now.passwordHash !== user.passwordHash) {
      await this.writer.revoke([issuedTokenOf(session.claims, session.tokenHash)]);
      return err({ type: 'invalid_credentials' });
    }
    return ok(session);
  }
}
