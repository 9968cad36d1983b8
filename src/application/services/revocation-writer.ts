import { revocationOf, type IssuedToken, type Revocation } from '../../domain/revocation.js';
import type { Clock } from '../ports/clock.js';
import type { RevocationStore } from '../ports/revocation-store.js';
import type { WorkSignal } from '../ports/work-signal.js';

/**
 * Revokes tokens the one safe way: records and their notices committed together first, the worker woken after.
 * No notice can leave before the store knows the token is revoked.
 */
export class RevocationWriter {
  constructor(
    private readonly revocations: RevocationStore,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
    private readonly l2Server: string,
  ) {}

  async revoke(tokens: readonly IssuedToken[]): Promise<number> {
    const revocations = this.revocationsOf(tokens);
    if (revocations.length === 0) return 0;
    const revoked = await this.revocations.revoke(revocations, this.clock.now());
    if (revoked > 0) this.signal.jobsQueued();
    return revoked;
  }

  /** Those of `tokens` not revoked yet: what a revocation of them all would newly revoke. */
  async unrevoked(tokens: readonly IssuedToken[]): Promise<IssuedToken[]> {
    const revoked = await Promise.all(tokens.map((token) => this.revocations.isRevoked(token.tokenHash)));
    return tokens.filter((_, i) => !revoked[i]);
  }

  /** The revocations (with their notices) of these tokens, once each: for writes that revoke along the way. */
  revocationsOf(tokens: readonly IssuedToken[]): Revocation[] {
    const unique = [...new Map(tokens.map((t) => [t.tokenHash, t])).values()];
    return unique.map((t) => revocationOf(t, this.l2Server));
  }
}
