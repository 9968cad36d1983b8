// Rule: the second factor is turned on by the person (their password or a passkey confirming it is them) with a
// code from the app they set up, which proves the app holds the secret. In the same write they get ten recovery
// codes (shown once, stored hashed), and the history records it. Then every other session of the account ends: a
// session signed in before with the password alone — perhaps an intruder's, the reason to turn it on — could
// otherwise turn the second factor off again with the password. With each ended session go the tokens it scoped to
// L1 servers (a scoped token never outlives its session; the L1 servers are told); the asking session keeps its own.
import { err, ok, type Result } from '../../../domain/result.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { OneTimePasswords } from '../../ports/one-time-passwords.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';
import type { IdentityConfirmation } from '../../services/identity-confirmation.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';
import { eventBy, type Asker } from './asker.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { accountGone, type SecurityError } from './security-errors.js';

export class EnableTotp {
  constructor(
    private readonly identity: IdentityConfirmation,
    private readonly security: AccountSecurityStore,
    private readonly codes: OneTimePasswords,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
  ) {}

  async execute(
    asker: Asker & { readonly code: string },
  ): Promise<Result<{ recoveryCodes: string[]; endedSessions: number }, SecurityError>> {
    const confirmed = await this.identity.confirm(asker.session, asker.confirmation, asker.clientAddress);
    if (!confirmed.ok) return confirmed;
    const username = asker.session.claims.username;
    const { totp, enrolment } = await this.security.factors(username);
    if (totp) return err({ type: 'already_enabled' });
    if (!enrolment)
      return err({ type: 'invalid_request', path: 'code', message: 'Set up the authenticator app first.' });
    const now = this.clock.now();
    const step = this.codes.matchingStep(enrolment.secret, asker.code.replace(/\s/g, ''), now);
    if (step === null)
      return err({
        type: 'invalid_request',
        path: 'code',
        message:
          'That is not the code the app shows now. Type the six digits it shows (they change every 30 s).',
      });
    const { codes, hashes } = newRecoveryCodes(this.secrets);
    const written = await this.security.apply(
      {
        username,
        // The code that confirmed it is used: it cannot sign in as well.
        totp: { secret: enrolment.secret, enabledAt: now, lastUsedStep: step },
        enrolment: null,
        recoveryCodeHashes: hashes,
        events: [eventBy(asker, 'second_factor_enabled', now)],
      },
      now,
    );
    if (written.type !== 'applied') return err(accountGone);
    const current = asker.session.claims.jti;
    const others = (await this.issuedTokens.listActiveByUser(username, this.clock.now())).filter(
      (token) => token.jti !== current && token.sessionJti !== current,
    );
    await this.writer.revoke(others);
    return ok({ recoveryCodes: codes, endedSessions: others.filter((t) => t.l1Server === null).length });
  }
}
