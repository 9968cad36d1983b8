// Rule: turning the second factor on starts with a new secret for the person's authenticator app (shown once, as a
// QR code and as text). It protects nothing until a code from the app confirms it; a new start replaces it.
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { OneTimePasswords } from '../../ports/one-time-passwords.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import { accountGone, type SecurityError } from './security-errors.js';

export interface TotpEnrolmentView {
  /** base32, for typing into the app by hand. */
  readonly secret: string;
  /** `otpauth://totp/…`: what the QR code holds. */
  readonly uri: string;
}

export class BeginTotpEnrolment {
  constructor(
    private readonly security: AccountSecurityStore,
    private readonly codes: OneTimePasswords,
    private readonly clock: Clock,
    /** The name the app shows for the service: "L2 (l2.example)". */
    private readonly issuer: string,
  ) {}

  async execute(
    session: AuthenticatedToken,
  ): Promise<
    Result<
      TotpEnrolmentView,
      Extract<SecurityError, { type: 'forbidden' | 'already_enabled' | 'invalid_credentials' }>
    >
  > {
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const username = session.claims.username;
    if ((await this.security.factors(username)).totp) return err({ type: 'already_enabled' });
    const secret = this.codes.newSecret();
    const written = await this.security.apply(
      { username, enrolment: { secret, createdAt: this.clock.now() }, events: [] },
      this.clock.now(),
    );
    if (written.type !== 'applied') return err(accountGone);
    return ok({ secret, uri: this.codes.provisioningUri(secret, username, this.issuer) });
  }
}
