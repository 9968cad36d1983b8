import type { Revocation } from '../../domain/revocation.js';

export interface RevocationStore {
  /**
   * Records the revocations and, in the same transaction (a transactional outbox), queues a notice job for each
   * revocation that is new and has a notice. Records that exist already are left alone and queue nothing, so
   * calling it twice is harmless. Returns how many revocations were new.
   */
  revoke(revocations: readonly Revocation[], now: Date): Promise<number>;
  /** Whether a token with this SHA-256 hex hash is revoked. Throws when the store cannot answer. */
  isRevoked(tokenHash: string): Promise<boolean>;
  /** Removes records whose `expiresAt` is before `now`; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
