// Rule (operators): `l2 users reset USER` makes a one-time link for the person to set a new password: valid one hour,
// used once, stored only as a hash, and the newest replaces any earlier one. With `clearFactors`, using it also
// removes the second factor and the passkeys (a person who lost them as well).
import { RESET_LINK_LIFETIME_SECONDS } from '../../../domain/account-security.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { normaliseUsername, type Username } from '../../../domain/user.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import { passkeyView, type PasskeyView } from '../security/get-account-security.js';
import type { Clock } from '../../ports/clock.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { AccountStateChangeError } from './disable-user.js';

export interface ResetLink {
  readonly username: Username;
  /** The link's secret (256 random bits), for the one URL that carries it. */
  readonly token: string;
  readonly expiresAt: Date;
  /** The account is disabled: the new password will not sign in until it is enabled. */
  readonly disabled: boolean;
  /**
   * The account's passkeys, which sign in on their own whatever the password: shown to the operator, so that one
   * the person does not know (someone else's) is cleared with the other factors.
   */
  readonly passkeys: readonly PasskeyView[];
}

export class CreateResetLink {
  constructor(
    private readonly users: UserRepository,
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    readonly username: string;
    readonly clearFactors: boolean;
  }): Promise<Result<ResetLink, AccountStateChangeError>> {
    const username = normaliseUsername(input.username);
    const profile = username.ok ? await this.users.findProfile(username.value) : null;
    if (!profile) return err({ type: 'not_found' });
    if (profile.deletedAt !== null) return err({ type: 'deleted' });
    const token = this.secrets.newToken();
    const expiresAt = new Date(this.clock.now().getTime() + RESET_LINK_LIFETIME_SECONDS * 1000);
    await this.security.putChallenge(
      {
        idHash: this.secrets.digest(token),
        kind: 'password_reset',
        username: profile.username,
        data: { clearFactors: input.clearFactors },
        expiresAt,
      },
      { exclusive: true },
    );
    const { passkeys } = await this.security.factors(profile.username);
    return ok({
      username: profile.username,
      token,
      expiresAt,
      disabled: profile.disabledAt !== null,
      passkeys: passkeys.map(passkeyView),
    });
  }
}
