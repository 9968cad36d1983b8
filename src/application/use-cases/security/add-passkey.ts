// Rule: the person (password or passkey confirming it is them) adds the passkey their browser made for the
// challenge they were given, under a name of their choice. The challenge is used up, the passkey stored and the
// history written in one store write; a credential registered already (to anyone) is refused.
import { MAX_PASSKEYS, PASSKEY_NAME_MAX_CHARACTERS, passkeyName } from '../../../domain/account-security.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { PasskeyCeremonies } from '../../ports/passkey-ceremonies.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';
import type { IdentityConfirmation } from '../../services/identity-confirmation.js';
import { eventBy, type Asker } from './asker.js';
import { passkeyView, type PasskeyView } from './get-account-security.js';
import { accountGone, type SecurityError } from './security-errors.js';

export class AddPasskey {
  constructor(
    private readonly identity: IdentityConfirmation,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(
    asker: Asker & { readonly name: string; readonly response: unknown },
  ): Promise<Result<PasskeyView, SecurityError>> {
    const name = passkeyName(asker.name);
    if (name.length === 0 || name.length > PASSKEY_NAME_MAX_CHARACTERS)
      return err({
        type: 'invalid_request',
        path: 'name',
        message: `Name the passkey in 1–${PASSKEY_NAME_MAX_CHARACTERS} characters.`,
      });
    const confirmed = await this.identity.confirm(asker.session, asker.confirmation, asker.clientAddress);
    if (!confirmed.ok) return confirmed;
    const username = asker.session.claims.username;
    const challenge = this.ceremonies.challengeOf(asker.response);
    if (challenge === null)
      return err({ type: 'invalid_request', path: 'response', message: 'Not a passkey made by a browser.' });
    const idHash = this.secrets.digest(challenge);
    const now = this.clock.now();
    const pending = await this.security.findChallenge(idHash, 'passkey_registration', now);
    if (!pending || pending.username !== username) return err({ type: 'challenge_expired' });
    const userHandle = pending.data.userHandle;
    if (typeof userHandle !== 'string') return err({ type: 'challenge_expired' });
    const made = await this.ceremonies.verifyRegistration(asker.response, challenge);
    if (!made)
      return err({ type: 'invalid_request', path: 'response', message: 'The passkey was not accepted.' });
    if ((await this.security.factors(username)).passkeys.length >= MAX_PASSKEYS)
      return err({ type: 'too_many_passkeys' });
    const passkey = {
      ...made,
      username,
      userHandle,
      name,
      createdAt: now,
      lastUsedAt: null,
    };
    const written = await this.security.apply(
      {
        username,
        consumes: { idHash, kind: 'passkey_registration' },
        addPasskey: passkey,
        events: [eventBy(asker, 'passkey_added', now, name)],
      },
      now,
    );
    switch (written.type) {
      case 'applied':
        return ok(passkeyView(passkey));
      case 'challenge_gone':
        return err({ type: 'challenge_expired' });
      case 'passkey_taken':
        return err({ type: 'passkey_exists' });
      case 'not_found':
        return err(accountGone);
    }
  }
}
