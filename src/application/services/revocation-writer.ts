import { revocationOf, type IssuedToken } from '../../domain/revocation.js';
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
    const unique = [...new Map(tokens.map((t) => [t.tokenHash, t])).values()];
    if (unique.length === 0) return 0;
    const revoked = await this.revocations.revoke(
      unique.map((t) => revocationOf(t, this.l2Server)),
      this.clock.now(),
    );
    if (revoked > 0) this.signal.jobsQueued();
    return revoked;
  }
}
