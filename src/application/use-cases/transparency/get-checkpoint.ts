// Rule (API.md §8): the latest signed checkpoint is served as the store keeps it, so every instance on one store
// serves the same bytes (GetVerifierKey: the key that checks it).
import type { SignedCheckpoint } from '../../ports/transparency-log-store.js';
import type { TransparencyLog } from '../../services/transparency/transparency-log.js';

export class GetCheckpoint {
  constructor(private readonly log: TransparencyLog) {}

  /** Null only before the first checkpoint was signed (a store still being checked at its first start). */
  execute(): Promise<SignedCheckpoint | null> {
    return this.log.latest();
  }
}
