import { issuedTokenOf } from '../../domain/revocation.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { SignInMethods } from '../../domain/sign-in-methods.js';
import { isActive, type User } from '../../domain/user.js';
import type { UserRepository } from '../ports/user-repository.js';
import type { RevocationWriter } from './revocation-writer.js';
import type { IssuedTokenView, TokenIssuer } from './token-issuer.js';

/**
 * The end of every sign-in (password, second step, passkey): a session token saying how the person signed in, kept
 * only if the account is still as the sign-in found it. A password change, deletion or disabling that wrote before
 * the second read revokes the token here; one that writes after it finds the token in its own sweep of the user's
 * tokens.
 */
export class SessionStart {
  constructor(
    private readonly issuer: TokenIssuer,
    private readonly users: UserRepository,
    private readonly writer: RevocationWriter,
  ) {}

  async start(
    user: User,
    amr: SignInMethods,
  ): Promise<Result<IssuedTokenView, { readonly type: 'invalid_credentials' }>> {
    const session = await this.issuer.issueSession(user.username, amr);
    const now = await this.users.findByUsername(user.username);
    if (!now || !isActive(now) || now.passwordHash !== user.passwordHash) {
      await this.writer.revoke([issuedTokenOf(session.claims, session.tokenHash)]);
      return err({ type: 'invalid_credentials' });
    }
    return ok(session);
  }
}
