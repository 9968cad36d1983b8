// The answers of the sign-in steps and of what protects an account (docs/accounts.md): a completed sign-in, the
// WebAuthn options, two-step sign-in, recovery codes, passkeys, the account's security and a reset. Each is typed by
// the schema of security-schemas.ts that /openapi.json publishes for it.
import type { CeremonyOptions as Options } from '../../../../application/ports/passkey-ceremonies.js';
import type { IssuedTokenView } from '../../../../application/services/token-issuer.js';
import type {
  AccountSecurityView,
  PasskeyView,
} from '../../../../application/use-cases/security/get-account-security.js';
import { methodsOf } from '../../../../domain/sign-in-methods.js';
import { TOKEN_LIFETIME_SECONDS } from '../../../../domain/token.js';
import type * as security from '../security-schemas.js';
import type { Presented } from './presented.js';

/** A completed sign-in (second step, passkey): as a password login's answer, with how the person signed in. */
export const signedInJson = (session: IssuedTokenView): Presented<typeof security.SignedIn> => ({
  username: session.claims.username,
  access_token: session.token,
  token_type: 'Bearer',
  expires_in: TOKEN_LIFETIME_SECONDS,
  expires_at: session.expiresAt.toISOString(),
  amr: methodsOf(session.claims),
});

/** WebAuthn options in their JSON form, as the ceremony made them (a passkey to add, or to sign in with). */
export const ceremonyOptionsJson = (options: Options): Presented<typeof security.CeremonyOptions> => {
  if (typeof options.challenge !== 'string') throw new Error('WebAuthn options without a challenge');
  return options as Presented<typeof security.CeremonyOptions>;
};

export const totpSetupJson = (setup: {
  readonly secret: string;
  readonly uri: string;
}): Presented<typeof security.TotpSetup> => ({ secret: setup.secret, otpauth_uri: setup.uri });

export const totpEnabledJson = (enabled: {
  readonly recoveryCodes: readonly string[];
  readonly endedSessions: number;
}): Presented<typeof security.TotpEnabled> => ({
  enabled: true,
  recovery_codes: enabled.recoveryCodes,
  ended_sessions: enabled.endedSessions,
});

export const totpDisabledJson = (changed: boolean): Presented<typeof security.TotpDisabled> => ({
  enabled: false,
  changed,
});

export const recoveryCodesJson = (codes: readonly string[]): Presented<typeof security.RecoveryCodes> => ({
  recovery_codes: codes,
});

export const passkeyJson = (p: PasskeyView): Presented<typeof security.PasskeyJson> => ({
  id: p.id,
  name: p.name,
  created_at: p.createdAt.toISOString(),
  last_used_at: p.lastUsedAt?.toISOString() ?? null,
  kind: p.kind,
});

export const PASSKEY_REMOVED: Presented<typeof security.PasskeyRemoved> = { removed: true };

/** GET /auth/security: what protects the account, and its latest changes. */
export const accountSecurityJson = (
  view: AccountSecurityView,
): Presented<typeof security.AccountSecurity> => {
  const { secondFactor, recoveryCodesLeft, passkeys, history } = view;
  return {
    second_factor: {
      enabled: secondFactor.enabled,
      enabled_at: secondFactor.enabledAt?.toISOString() ?? null,
    },
    recovery_codes_left: recoveryCodesLeft,
    passkeys: passkeys.map(passkeyJson),
    history: history.map((e) => ({
      kind: e.kind,
      detail: e.detail,
      at: e.at.toISOString(),
      address: e.address,
    })),
  };
};

/** POST /auth/reset: whose password was set, and how many tokens went. */
export const resetDoneJson = (reset: {
  readonly username: string;
  readonly revoked: number;
}): Presented<typeof security.ResetDone> => ({ username: reset.username, revoked: reset.revoked });
