// Rule: the person (password or passkey confirming it is them) gets ten new recovery codes; the old ones stop
// working in the same write, and the history records it. Recovery codes stand in for the second factor, so the
// factor must be on.
import { err, ok, type Result } from '../../../domain/result.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';
import type { IdentityConfirmation } from '../../services/identity-confirmation.js';
import { eventBy, type Asker } from './asker.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { accountGone, type SecurityError } from './security-errors.js';

export class RegenerateRecoveryCodes {
  constructor(
    private readonly identity: IdentityConfirmation,
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(asker: Asker): Promise<Result<{ recoveryCodes: string[] }, SecurityError>> {
    const confirmed = await this.identity.confirm(asker.session, asker.confirmation, asker.clientAddress);
    if (!confirmed.ok) return confirmed;
    const username = asker.session.claims.username;
    if (!(await this.security.factors(username)).totp) return err({ type: 'not_enabled' });
    const now = this.clock.now();
    const { codes, hashes } = newRecoveryCodes(this.secrets);
    const written = await this.security.apply(
      { username, recoveryCodeHashes: hashes, events: [eventBy(asker, 'recovery_codes_regenerated', now)] },
      now,
    );
    return written.type === 'applied' ? ok({ recoveryCodes: codes }) : err(accountGone);
  }
}
