// Rule: a signed-in person changes what protects their account only after proving again who they are — with their
// password or with one of their own passkeys — and the attempt counts towards the login limits either way.
import { err, ok, type Result } from '../../domain/result.js';
import { isScoped } from '../../domain/token.js';
import type { LoginThrottle } from '../ports/login-throttle.js';
import type { AuthenticatedToken } from './authenticate-token.js';
import type { PasskeyAssertions } from './passkey-assertions.js';
import type { PasswordCheck } from './password-check.js';
import type { SecurityError } from '../use-cases/security/security-errors.js';

/** How the person proves it is them: the current password, or a passkey's answer to a sign-in challenge. */
export type Confirmation = { readonly password: string } | { readonly passkey: unknown };

export class IdentityConfirmation {
  constructor(
    private readonly passwords: PasswordCheck,
    private readonly assertions: PasskeyAssertions,
    private readonly throttle: LoginThrottle,
  ) {}

  async confirm(
    session: AuthenticatedToken,
    confirmation: Confirmation,
    clientAddress: string,
  ): Promise<Result<void, SecurityError>> {
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const username = session.claims.username;
    if ('password' in confirmation) {
      const checked = await this.passwords.check({
        username,
        password: confirmation.password,
        clientAddress,
      });
      return checked.ok ? ok(undefined) : checked;
    }
    const verdict = await this.throttle.attempt(username, clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const passkey = await this.assertions.verify(confirmation.passkey);
    // Another account's passkey proves nothing about this one.
    if (!passkey || passkey.username !== username) return err({ type: 'invalid_credentials' });
    await this.throttle.succeeded(username, clientAddress);
    return ok(undefined);
  }
}
