// Rule: revocation records are kept only until the token would have expired anyway; the record of issued tokens
// likewise.
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { RevocationStore } from '../../ports/revocation-store.js';

export class CleanupRevocations {
  constructor(
    private readonly revocations: RevocationStore,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ revocations: number; issuedTokens: number }> {
    const now = this.clock.now();
    return {
      revocations: await this.revocations.deleteExpired(now),
      issuedTokens: await this.issuedTokens.deleteExpired(now),
    };
  }
}
