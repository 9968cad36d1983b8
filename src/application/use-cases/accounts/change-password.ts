// Rule: a signed-in person changes their password by giving the current one (the attempt counts towards the login
// limits). The session that asked stays signed in; every other token of theirs — other sessions and every scoped
// token, whichever session made it — is revoked in the same write as the new hash, and the L1 servers are told.
import { checkNewPassword, newPasswordMessage, passwordBytesForHashing } from '../../../domain/password.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { WorkSignal } from '../../ports/work-signal.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import {
  unavailableWhenOverloaded,
  type PasswordCheck,
  type PasswordCheckError,
} from '../../services/password-check.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export type ChangePasswordError =
  | PasswordCheckError
  | { readonly type: 'forbidden' }
  | { readonly type: 'invalid_request'; readonly path: 'new_password'; readonly message: string };

export class ChangePassword {
  constructor(
    private readonly passwords: PasswordCheck,
    private readonly hasher: PasswordHasher,
    private readonly users: UserRepository,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    currentPassword: string;
    newPassword: string;
    clientAddress: string;
  }): Promise<Result<{ revoked: number }, ChangePasswordError>> {
    const { session } = input;
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const fresh = checkNewPassword(input.newPassword);
    if (!fresh.ok) {
      return err({ type: 'invalid_request', path: 'new_password', message: newPasswordMessage(fresh.error) });
    }
    const checked = await this.passwords.check({
      username: session.claims.username,
      password: input.currentPassword,
      clientAddress: input.clientAddress,
    });
    if (!checked.ok) return checked;

    let hash: string;
    try {
      hash = await this.hasher.hash(passwordBytesForHashing(fresh.value));
    } catch (error) {
      // Nothing changed: the person tries again when the hashing line has room.
      return err(unavailableWhenOverloaded(error));
    }
    const username = checked.value.username;
    const others = async () =>
      (await this.issuedTokens.listActiveByUser(username, this.clock.now())).filter(
        (token) => token.tokenHash !== session.tokenHash,
      );
    const revoked = await this.users.changePassword(
      username,
      hash,
      this.writer.revocationsOf(await others()),
      this.clock.now(),
    );
    if (revoked === null) return err({ type: 'invalid_credentials' });
    this.signal.jobsQueued();
    // A token issued between the list and the write (a login with the old password a moment earlier) is caught here.
    // A login with the new password cannot be: it must read the new hash and then run bcrypt (tens of ms at any
    // production cost) before its token exists, while this second list follows the write at once.
    return ok({ revoked: revoked + (await this.writer.revoke(await others())) });
  }
}
