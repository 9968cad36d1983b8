// Rule: a passkey sign-in answers a challenge this service made (single-use, five minutes, in the store so every
// instance agrees), is signed by a passkey registered here with user verification, names that passkey's own account
// (its user handle), and moves the authenticator's counter on when it keeps one — atomically, so one assertion
// cannot be used twice.
import { CHALLENGE_LIFETIME_SECONDS, type Passkey } from '../../domain/account-security.js';
import type { AccountSecurityStore } from '../ports/account-security-store.js';
import type { Clock } from '../ports/clock.js';
import type { CeremonyOptions, PasskeyCeremonies } from '../ports/passkey-ceremonies.js';
import type { SecretGenerator } from '../ports/secret-generator.js';

export class PasskeyAssertions {
  constructor(
    private readonly ceremonies: PasskeyCeremonies,
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  /** Options for `navigator.credentials.get()`, their challenge stored. */
  async signInOptions(): Promise<CeremonyOptions> {
    const challenge = this.secrets.newToken();
    await this.security.putChallenge({
      idHash: this.secrets.digest(challenge),
      kind: 'passkey_sign_in',
      username: null,
      data: {},
      expiresAt: new Date(this.clock.now().getTime() + CHALLENGE_LIFETIME_SECONDS * 1000),
    });
    return this.ceremonies.signInOptions({ challenge });
  }

  /**
   * The passkey that signed `response` (its counter and last use recorded), or null for anything else — the
   * challenge is used up either way, so a refused response cannot be tried again with it.
   */
  async verify(response: unknown): Promise<Passkey | null> {
    const challenge = this.ceremonies.challengeOf(response);
    const named = this.ceremonies.assertionOf(response);
    if (challenge === null || named === null) return null;
    const now = this.clock.now();
    const taken = await this.security.takeChallenge(this.secrets.digest(challenge), 'passkey_sign_in', now);
    if (!taken) return null;
    const passkey = await this.security.findPasskey(named.credentialId);
    // The user handle the authenticator returns must be the one this passkey was registered for: a credential of
    // one account can never sign in as another.
    if (!passkey || named.userHandle === null || named.userHandle !== passkey.userHandle) return null;
    const verified = await this.ceremonies.verifySignIn(response, challenge, passkey);
    if (!verified) return null;
    const recorded = await this.security.usePasskey(
      passkey.credentialId,
      passkey.counter,
      verified.counter,
      now,
    );
    return recorded ? { ...passkey, counter: verified.counter, lastUsedAt: now } : null;
  }
}
