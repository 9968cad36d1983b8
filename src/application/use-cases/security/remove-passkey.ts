// Rule: the person (password or passkey confirming it is them) removes one of their passkeys, and the history
// records it, in one store write. They keep their password, so removing the last passkey never locks them out.
import { err, ok, type Result } from '../../../domain/result.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IdentityConfirmation } from '../../services/identity-confirmation.js';
import { eventBy, type Asker } from './asker.js';
import type { SecurityError } from './security-errors.js';

export class RemovePasskey {
  constructor(
    private readonly identity: IdentityConfirmation,
    private readonly security: AccountSecurityStore,
    private readonly clock: Clock,
  ) {}

  async execute(asker: Asker & { readonly id: string }): Promise<Result<{ removed: true }, SecurityError>> {
    const confirmed = await this.identity.confirm(asker.session, asker.confirmation, asker.clientAddress);
    if (!confirmed.ok) return confirmed;
    const username = asker.session.claims.username;
    const passkey = await this.security.findPasskey(asker.id);
    // Another account's passkey is as unknown as one that does not exist.
    if (!passkey || passkey.username !== username) return err({ type: 'not_found' });
    const now = this.clock.now();
    const written = await this.security.apply(
      {
        username,
        removePasskey: passkey.credentialId,
        events: [eventBy(asker, 'passkey_removed', now, passkey.name)],
      },
      now,
    );
    return written.type === 'applied' ? ok({ removed: true }) : err({ type: 'not_found' });
  }
}
