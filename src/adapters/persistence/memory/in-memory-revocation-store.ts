import type { RevocationStore } from '../../../application/ports/revocation-store.js';
import type { Revocation } from '../../../domain/revocation.js';
import { MemoryDatabase } from './memory-database.js';

/** Shares its `MemoryDatabase` with `InMemoryJobQueue`, where the notices it queues are claimed. */
export class InMemoryRevocationStore implements RevocationStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async revoke(revocations: readonly Revocation[], now: Date): Promise<number> {
    this.db.assertOpen();
    return this.db.revoke(revocations, now);
  }

  async isRevoked(tokenHash: string): Promise<boolean> {
    this.db.assertOpen();
    return this.db.revocations.has(tokenHash);
  }

  async deleteExpired(now: Date): Promise<number> {
    this.db.assertOpen();
    let deleted = 0;
    for (const [hash, record] of this.db.revocations) {
      if (record.expiresAt < now.getTime()) {
        this.db.revocations.delete(hash);
        deleted++;
      }
    }
    return deleted;
  }
}
