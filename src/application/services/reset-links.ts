// An operator's reset link as the store keeps it: a `password_reset` challenge under the hash of the link's secret
// (never the secret), for one account, living one hour, the newest replacing any earlier one, and saying whether
// using it also clears the account's second factor and passkeys. Made by CreateResetLink; opened by CheckResetLink
// (the page) and ResetPassword (the new password), which read it the one way.
import { RESET_LINK_LIFETIME_SECONDS } from '../../domain/account-security.js';
import type { Username } from '../../domain/user.js';
import type { AccountSecurityStore } from '../ports/account-security-store.js';
import type { Clock } from '../ports/clock.js';
import type { SecretGenerator } from '../ports/secret-generator.js';

export interface ResetLinkView {
  readonly username: Username;
  readonly expiresAt: Date;
  readonly clearFactors: boolean;
}

export class ResetLinks {
  constructor(
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  /** A new link for `username`: its secret (256 random bits, for the one URL that carries it) and its expiry. */
  async issue(username: Username, clearFactors: boolean): Promise<{ token: string; expiresAt: Date }> {
    const token = this.secrets.newToken();
    const expiresAt = new Date(this.clock.now().getTime() + RESET_LINK_LIFETIME_SECONDS * 1000);
    await this.security.putChallenge(
      { idHash: this.idHashOf(token), kind: 'password_reset', username, data: { clearFactors }, expiresAt },
      { exclusive: true },
    );
    return { token, expiresAt };
  }

  /** What the link of `token` is for while it can be used; null when it is unknown, used, replaced or expired. */
  async find(token: string): Promise<ResetLinkView | null> {
    const link = await this.security.findChallenge(this.idHashOf(token), 'password_reset', this.clock.now());
    if (!link?.username) return null;
    return {
      username: link.username,
      expiresAt: link.expiresAt,
      clearFactors: link.data.clearFactors === true,
    };
  }

  /** The id the store keeps the link under (what a write that uses it up names). */
  idHashOf(token: string): string {
    return this.secrets.digest(token);
  }
}
