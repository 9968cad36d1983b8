// Rule: a password sign-in of an account with its second factor on is completed by a code of the authenticator app
// (each code once: its time-step is recorded, and only a later one is accepted) or by an unused recovery code (which
// is then used up, and the history says so). Every try counts towards the login limits before the code is looked at;
// only a success clears them. Wrong app codes also count towards a limit of their own per account and day, which no
// success clears: at the login limits' pace alone, six digits would be guessed within a year by someone holding the
// password. Recovery codes (80 bits) stay usable past it, so reaching it never locks the person out. The step is
// single-use and dies with a password change.
import { canonicalRecoveryCode } from '../../../domain/recovery-code.js';
import { err, type Result } from '../../../domain/result.js';
import { PASSWORD_AND_CODE } from '../../../domain/sign-in-methods.js';
import { isActive, type Username } from '../../../domain/user.js';
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';
import type { FailureLimit } from '../../ports/failure-limit.js';
import type { LoginThrottle } from '../../ports/login-throttle.js';
import type { OneTimePasswords } from '../../ports/one-time-passwords.js';
import type { SecretGenerator } from '../../ports/secret-generator.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { SecondSteps } from '../../services/second-steps.js';
import type { SessionStart } from '../../services/session-start.js';
import type { IssuedTokenView } from '../../services/token-issuer.js';
import type { SecurityError } from './security-errors.js';

export interface CompleteSignInInput {
  readonly challenge: string;
  /** The six digits of the authenticator app… */
  readonly code?: string;
  /** …or one of the recovery codes. */
  readonly recoveryCode?: string;
  /** The address the login limits count (an IPv4 address or an IPv6 /64). */
  readonly clientAddress: string;
  /** The request's address, for the history. */
  readonly address: string;
}

export type CompleteSignInError = Extract<
  SecurityError,
  { type: 'invalid_credentials' | 'rate_limited' | 'challenge_expired' }
>;

export class CompleteSignIn {
  constructor(
    private readonly steps: SecondSteps,
    private readonly users: UserRepository,
    private readonly security: AccountSecurityStore,
    private readonly codes: OneTimePasswords,
    private readonly secrets: SecretGenerator,
    private readonly throttle: LoginThrottle,
    private readonly appCodeFailures: FailureLimit,
    private readonly sessions: SessionStart,
    private readonly clock: Clock,
  ) {}

  async execute(input: CompleteSignInInput): Promise<Result<IssuedTokenView, CompleteSignInError>> {
    const step = await this.steps.find(input.challenge);
    if (!step?.username) return err({ type: 'challenge_expired' });
    const username = step.username;
    // Counted before the code is looked at, as a password is: parallel guesses cannot all slip through.
    const verdict = await this.throttle.attempt(username, input.clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const user = await this.users.findByUsername(username);
    if (!user || !isActive(user) || !this.steps.followed(step, user))
      return err({ type: 'challenge_expired' });

    if (input.code !== undefined) {
      const cap = await this.appCodeFailures.check(username);
      if (cap.limited) return err({ type: 'rate_limited', retryAfterSeconds: cap.retryAfterSeconds });
    }
    const accepted =
      input.code !== undefined
        ? await this.useAppCode(username, input.code)
        : await this.useRecoveryCode(username, input.recoveryCode ?? '', input.address);
    if (!accepted) {
      if (input.code !== undefined) await this.appCodeFailures.failed(username);
      return err({ type: 'invalid_credentials' });
    }
    // The code is used up first: a step raced by another completion fails here, and the code is spent all the same.
    if (!(await this.steps.take(input.challenge))) return err({ type: 'challenge_expired' });
    await this.throttle.succeeded(username, input.clientAddress);
    return this.sessions.start(user, PASSWORD_AND_CODE);
  }

  private async useAppCode(username: Username, code: string): Promise<boolean> {
    const { totp } = await this.security.factors(username);
    if (!totp) return false;
    const step = this.codes.matchingStep(totp.secret, code.replace(/\s/g, ''), this.clock.now());
    // A step at or before the last one accepted is a replay (or an older code): refused in the same compare-and-set.
    return step !== null && step > totp.lastUsedStep && (await this.security.useTotpStep(username, step));
  }

  private async useRecoveryCode(username: Username, typed: string, address: string): Promise<boolean> {
    const canonical = canonicalRecoveryCode(typed);
    if (canonical === null) return false;
    const digest = this.secrets.digest(canonical);
    const { recoveryCodes } = await this.security.factors(username);
    // Every unused code compared, in constant time each: nothing tells which came closer.
    let found = false;
    for (const code of recoveryCodes)
      if (code.usedAt === null && this.secrets.sameDigest(code.hash, digest)) found = true;
    if (!found) return false;
    return this.security.useRecoveryCode(username, digest, {
      username,
      kind: 'recovery_code_used',
      detail: null,
      at: this.clock.now(),
      address,
    });
  }
}
