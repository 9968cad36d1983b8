// Rule: the person (password or passkey confirming it is them) turns the second factor off; its recovery codes go
// with it, and the history records it. They keep their password, so this never locks them out.
import { err, ok, type Result } from '../../../domain/result.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IdentityConfirmation } from '../../services/identity-confirmation.js';
import { eventBy, type Asker } from './asker.js';
import { accountGone, type SecurityError } from './security-errors.js';

export class DisableTotp {
  constructor(
    private readonly identity: IdentityConfirmation,
    private readonly security: AccountSecurityStore,
    private readonly clock: Clock,
  ) {}

  /** `changed` is false when it was off already (nothing written). */
  async execute(asker: Asker): Promise<Result<{ changed: boolean }, SecurityError>> {
    const confirmed = await this.identity.confirm(asker.session, asker.confirmation, asker.clientAddress);
    if (!confirmed.ok) return confirmed;
    const username = asker.session.claims.username;
    if (!(await this.security.factors(username)).totp) return ok({ changed: false });
    const now = this.clock.now();
    const written = await this.security.apply(
      {
        username,
        totp: null,
        enrolment: null,
        recoveryCodeHashes: [],
        events: [eventBy(asker, 'second_factor_disabled', now)],
      },
      now,
    );
    return written.type === 'applied' ? ok({ changed: true }) : err(accountGone);
  }
}
