// Rule: valid credentials get a 30-day session token. An unknown user and a wrong password get the same answer
// after the same bcrypt work; once a username or an address has used up its attempts, a login is refused before
// bcrypt runs. A login that checked a password the account no longer has (changed, or the account deleted or
// disabled, while bcrypt ran) gets no token. An account with its second factor on gets no token for the password
// alone: it gets a second step (`mfa_required`), and its failed logins are not cleared until that step succeeds.
import { needsSecondStep } from '../../../domain/account-security.js';
import { err, type Result } from '../../../domain/result.js';
import { PASSWORD_ONLY } from '../../../domain/sign-in-methods.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { PasswordCheck, PasswordCheckError } from '../../services/password-check.js';
import type { PendingSignIn, SecondSteps } from '../../services/second-steps.js';
import type { SessionStart } from '../../services/session-start.js';
import type { IssuedTokenView } from '../../services/token-issuer.js';

export interface IssueTokenInput {
  readonly username: string;
  readonly password: string;
  readonly clientAddress: string;
}

export type IssueTokenError =
  | PasswordCheckError
  /** The password was right and the account asks for its second factor: complete the step within its lifetime. */
  | ({ readonly type: 'mfa_required' } & PendingSignIn);

export class IssueToken {
  constructor(
    private readonly passwords: PasswordCheck,
    private readonly security: AccountSecurityStore,
    private readonly secondSteps: SecondSteps,
    private readonly sessions: SessionStart,
  ) {}

  async execute(input: IssueTokenInput): Promise<Result<IssuedTokenView, IssueTokenError>> {
    const checked = await this.passwords.check(input, { firstFactorOnly: true });
    if (!checked.ok) return checked;
    const user = checked.value;
    if (needsSecondStep(await this.security.factors(user.username)))
      return err({ type: 'mfa_required', ...(await this.secondSteps.begin(user)) });
    await this.passwords.succeeded(input.username, input.clientAddress);
    return this.sessions.start(user, PASSWORD_ONLY);
  }
}
