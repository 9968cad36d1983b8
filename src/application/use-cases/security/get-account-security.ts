// Rule: a person sees what protects their account — whether the second factor is on, how many recovery codes are
// left, their passkeys (never a key or a secret) — and the latest changes of it, with when and from where.
import {
  HISTORY_SHOWN,
  unusedRecoveryCodes,
  type AccountEvent,
  type Passkey,
} from '../../../domain/account-security.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';

export interface PasskeyView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  /** `hwk` for a passkey bound to its device, `swk` for one that may be synced. */
  readonly kind: 'hwk' | 'swk';
}

export interface AccountSecurityView {
  readonly secondFactor: { readonly enabled: boolean; readonly enabledAt: Date | null };
  readonly recoveryCodesLeft: number;
  readonly passkeys: readonly PasskeyView[];
  readonly history: readonly AccountEvent[];
}

export const passkeyView = (p: Passkey): PasskeyView => ({
  id: p.credentialId,
  name: p.name,
  createdAt: p.createdAt,
  lastUsedAt: p.lastUsedAt,
  kind: p.backupEligible ? 'swk' : 'hwk',
});

export class GetAccountSecurity {
  constructor(private readonly security: AccountSecurityStore) {}

  async execute(
    session: AuthenticatedToken,
  ): Promise<Result<AccountSecurityView, { readonly type: 'forbidden' }>> {
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const username = session.claims.username;
    const factors = await this.security.factors(username);
    return ok({
      secondFactor: { enabled: factors.totp !== null, enabledAt: factors.totp?.enabledAt ?? null },
      recoveryCodesLeft: factors.totp ? unusedRecoveryCodes(factors) : 0,
      passkeys: factors.passkeys.map(passkeyView),
      history: await this.security.history(username, HISTORY_SHOWN),
    });
  }
}
