import { CHALLENGE_LIFETIME_SECONDS, type Challenge } from '../../domain/account-security.js';
import type { User } from '../../domain/user.js';
import type { AccountSecurityStore } from '../ports/account-security-store.js';
import type { Clock } from '../ports/clock.js';
import type { SecretGenerator } from '../ports/secret-generator.js';

/** A password sign-in waiting for its second step: what the client gets back (`mfa_required`). */
export interface PendingSignIn {
  /** The step's id (256 random bits), sent back with the code; the store keeps only its hash. */
  readonly challenge: string;
  readonly expiresAt: Date;
}

/**
 * The second step of a password sign-in: a short-lived, single-use challenge bound to the account and to the
 * password hash it followed (a password changed or reset meanwhile voids it).
 */
export class SecondSteps {
  constructor(
    private readonly security: AccountSecurityStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async begin(user: User): Promise<PendingSignIn> {
    const challenge = this.secrets.newToken();
    const expiresAt = new Date(this.clock.now().getTime() + CHALLENGE_LIFETIME_SECONDS * 1000);
    await this.security.putChallenge({
      idHash: this.secrets.digest(challenge),
      kind: 'second_step',
      username: user.username,
      data: { password: this.passwordMark(user) },
      expiresAt,
    });
    return { challenge, expiresAt };
  }

  /** The step waiting under this id, unexpired; null when there is none. */
  find(challenge: string): Promise<Challenge | null> {
    return this.security.findChallenge(this.secrets.digest(challenge), 'second_step', this.clock.now());
  }

  /** Uses the step up: of two completions racing, one gets it. */
  async take(challenge: string): Promise<boolean> {
    const taken = await this.security.takeChallenge(
      this.secrets.digest(challenge),
      'second_step',
      this.clock.now(),
    );
    return taken !== null;
  }

  /** Whether the step followed the password the account has now. */
  followed(step: Challenge, user: User): boolean {
    const mark = step.data.password;
    return typeof mark === 'string' && this.secrets.sameDigest(mark, this.passwordMark(user));
  }

  private passwordMark(user: User): string {
    return this.secrets.digest(`second step after ${user.passwordHash}`);
  }
}
