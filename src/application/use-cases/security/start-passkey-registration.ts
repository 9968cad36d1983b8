// Rule: a signed-in person asks to add a passkey: they get the options for their browser, with a challenge stored
// for them alone (five minutes, single-use) and their account's user handle (random; the same for every passkey of
// the account, so an authenticator keeps one passkey per account), their existing passkeys excluded.
import { CHALLENGE_LIFETIME_SECONDS, MAX_PASSKEYS } from '../../../domain/account-security.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { CeremonyOptions, PasskeyCeremonies } from '../../ports/passkey-ceremonies.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { SecurityError } from './security-errors.js';

export class StartPasskeyRegistration {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(
    session: AuthenticatedToken,
  ): Promise<Result<CeremonyOptions, Extract<SecurityError, { type: 'forbidden' | 'too_many_passkeys' }>>> {
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const username = session.claims.username;
    const { passkeys } = await this.security.factors(username);
    if (passkeys.length >= MAX_PASSKEYS) return err({ type: 'too_many_passkeys' });
    const userHandle = passkeys[0]?.userHandle ?? this.secrets.newToken();
    const challenge = this.secrets.newToken();
    await this.security.putChallenge(
      {
        idHash: this.secrets.digest(challenge),
        kind: 'passkey_registration',
        username,
        data: { userHandle },
        expiresAt: new Date(this.clock.now().getTime() + CHALLENGE_LIFETIME_SECONDS * 1000),
      },
      // One ceremony pending per account, the newest: a session asking again and again stores one row, not many.
      { exclusive: true },
    );
    return ok(
      await this.ceremonies.registrationOptions({ challenge, username, userHandle, exclude: passkeys }),
    );
  }
}
