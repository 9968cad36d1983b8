// Rule: challenges (WebAuthn ceremonies, second steps, reset links) nobody used are forgotten once expired.
import type { AccountSecurityStore } from '../../ports/account-security-store.js';
import type { Clock } from '../../ports/clock.js';

export class CleanupChallenges {
  constructor(
    private readonly security: AccountSecurityStore,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.security.deleteExpiredChallenges(this.clock.now());
  }
}
