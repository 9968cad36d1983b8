// Rule: a passkey signs its person in on its own — no username, no password: a discoverable credential with user
// verification is something they have and something they know or are, so the token says both factors (`hwk` or
// `swk`, and `mfa`). Only a live, enabled account signs in. The challenge it answers came from StartPasskeySignIn.
import { err, type Result } from '../../../domain/result.js';
import { passkeyMethods } from '../../../domain/sign-in-methods.js';
import { isActive } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { PasskeyAssertions } from '../../services/passkey-assertions.js';
import type { SessionStart } from '../../services/session-start.js';
import type { IssuedTokenView } from '../../services/token-issuer.js';

export class SignInWithPasskey {
  constructor(
    private readonly assertions: PasskeyAssertions,
    private readonly users: UserRepository,
    private readonly sessions: SessionStart,
  ) {}

  async execute(
    response: unknown,
  ): Promise<Result<IssuedTokenView, { readonly type: 'invalid_credentials' }>> {
    const passkey = await this.assertions.verify(response);
    if (!passkey) return err({ type: 'invalid_credentials' });
    const user = await this.users.findByUsername(passkey.username);
    if (!user || !isActive(user)) return err({ type: 'invalid_credentials' });
    return this.sessions.start(user, passkeyMethods(passkey.backupEligible));
  }
}
