// Rule (operators): `l2 users reset USER` makes a one-time link for the person to set a new password: valid one hour,
// used once, stored only as a hash, and the newest replaces any earlier one. With `clearFactors`, using it also
// removes the second factor and the passkeys (a person who lost them as well).
import { err, ok, type Result } from '../../../domain/result.js';
import { normaliseUsername, type Username } from '../../../domain/user.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import { passkeyView, type PasskeyView } from '../security/get-account-security.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { ResetLinks } from '../../services/reset-links.js';
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
    private readonly links: ResetLinks,
    private readonly security: AccountSecurityStore,
  ) {}

  async execute(input: {
    readonly username: string;
    readonly clearFactors: boolean;
  }): Promise<Result<ResetLink, AccountStateChangeError>> {
    const username = normaliseUsername(input.username);
    const profile = username.ok ? await this.users.findProfile(username.value) : null;
    if (!profile) return err({ type: 'not_found' });
    if (profile.deletedAt !== null) return err({ type: 'deleted' });
    const { token, expiresAt } = await this.links.issue(profile.username, input.clearFactors);
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
