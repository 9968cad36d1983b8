// Rule: revocation records are kept only until the token would have expired anyway, plus a margin for clocks; the
// record of issued tokens likewise; authorization codes a day past their expiry (long enough to recognise a code
// replayed late).
import { AUTHORIZATION_CODE_RETENTION_SECONDS } from '../../../domain/oauth.js';
import type { AuthorizationCodeStore } from '../../ports/authorization-code-store.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { RevocationStore } from '../../ports/revocation-store.js';

/**
 * Several instances on one store each run the clean-up with their own clock, and each checks a token's expiry with
 * its own too: one whose clock runs ahead must not delete a revocation another, running behind, still needs to
 * refuse a token it holds valid. Clocks are expected NTP-synced (docs/deploy.md); the margin covers what is left.
 */
export const CLEANUP_CLOCK_MARGIN_MS = 5 * 60 * 1000;

export class CleanupRevocations {
  constructor(
    private readonly revocations: RevocationStore,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly authorizationCodes: AuthorizationCodeStore,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ revocations: number; issuedTokens: number; authorizationCodes: number }> {
    const now = this.clock.now();
    const expiredBefore = new Date(now.getTime() - CLEANUP_CLOCK_MARGIN_MS);
    const codesBefore = new Date(now.getTime() - AUTHORIZATION_CODE_RETENTION_SECONDS * 1000);
    return {
      revocations: await this.revocations.deleteExpired(expiredBefore),
      issuedTokens: await this.issuedTokens.deleteExpired(expiredBefore),
      authorizationCodes: await this.authorizationCodes.deleteExpired(codesBefore),
    };
  }
}
