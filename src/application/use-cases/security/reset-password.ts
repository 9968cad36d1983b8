// Rule: an operator's reset link (used once, within its hour) lets the person set a new password. In one store
// write the link is used up, the password replaced, every token of the account revoked (the L1 servers told, as at
// a password change), with `clearFactors` the second factor, recovery codes and passkeys removed, and the history
// written. A link used, expired or replaced is `challenge_expired`. The login limits' count of the username is
// forgotten, as after a successful login: the person — perhaps locked out by their own tries, or by someone's
// guesses — signs in with the new password at once.
import { checkNewPassword, newPasswordMessage, passwordBytesForHashing } from '../../../domain/password.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { AccountEvent } from '../../../domain/account-security.js';
import type { Username } from '../../../domain/user.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import { unavailableWhenOverloaded } from '../../services/password-check.js';
import type { ResetLinks } from '../../services/reset-links.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';
import type { SecurityError } from './security-errors.js';

export type ResetPasswordError = Extract<
  SecurityError,
  { type: 'challenge_expired' | 'invalid_request' | 'unavailable' }
>;

export class ResetPassword {
  constructor(
    private readonly links: ResetLinks,
    private readonly security: AccountSecurityStore,
    private readonly hasher: PasswordHasher,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly throttle: LoginThrottle,
  ) {}

  async execute(input: {
    readonly token: string;
    readonly newPassword: string;
    /** The request's address, for the history. */
    readonly address: string;
    /** The address the login limits count (an IPv4 address or an IPv6 /64). */
    readonly clientAddress: string;
  }): Promise<Result<{ username: Username; revoked: number }, ResetPasswordError>> {
    const found = await this.links.find(input.token);
    if (!found) return err({ type: 'challenge_expired' });
    const { username, clearFactors } = found;
    const fresh = checkNewPassword(input.newPassword);
    if (!fresh.ok)
      return err({ type: 'invalid_request', path: 'new_password', message: newPasswordMessage(fresh.error) });
    let passwordHash: string;
    try {
      passwordHash = await this.hasher.hash(passwordBytesForHashing(fresh.value));
    } catch (error) {
      return err(unavailableWhenOverloaded(error));
    }
    const now = this.clock.now();
    const event = (kind: AccountEvent['kind']): AccountEvent => ({
      username,
      kind,
      detail: null,
      at: now,
      address: input.address,
    });
    const live = await this.issuedTokens.listActiveByUser(username, now);
    const written = await this.security.apply(
      {
        username,
        consumes: { idHash: this.links.idHashOf(input.token), kind: 'password_reset' },
        passwordHash,
        revocations: this.writer.revocationsOf(await this.writer.unrevoked(live)),
        ...(clearFactors
          ? { totp: null, enrolment: null, recoveryCodeHashes: [], removeAllPasskeys: true }
          : {}),
        events: clearFactors
          ? [event('password_reset'), event('factors_cleared')]
          : [event('password_reset')],
      },
      now,
    );
    if (written.type !== 'applied') return err({ type: 'challenge_expired' });
    if (written.revoked > 0) this.signal.jobsQueued();
    // A login with the old password that recorded its token after the list above is caught here.
    const late = await this.writer.revoke(await this.issuedTokens.listActiveByUser(username, now));
    await this.throttle.succeeded(username, input.clientAddress);
    return ok({ username, revoked: written.revoked + late });
  }
}
