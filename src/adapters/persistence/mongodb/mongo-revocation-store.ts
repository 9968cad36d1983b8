import type { ClientSession, MongoClient } from 'mongodb';
import type { RevocationStore } from '../../../application/ports/revocation-store.js';
import { revocationNoticeJob } from '../../../domain/jobs.js';
import type { Revocation } from '../../../domain/revocation.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument } from './mongo-job-document.js';
import type { MongoCollections } from './mongo-schema.js';
import { transaction } from './mongo-transactions.js';

/**
 * Records the revocations inside `session`'s transaction and — the transactional outbox — queues a notice exactly
 * when its record is new. Returns how many were new. The one way revocations are written.
 */
export async function revokeIn(
  collections: MongoCollections,
  revocations: readonly Revocation[],
  now: Date,
  session: ClientSession,
): Promise<number> {
  let added = 0;
  for (const { record, notice } of revocations) {
    const { upsertedCount } = await collections.revocations.updateOne(
      { _id: record.tokenHash },
      { $setOnInsert: { username: record.username, expiresAt: record.expiresAt, revokedAt: now } },
      { upsert: true, session },
    );
    if (upsertedCount !== 1) continue;
    added++;
    if (notice) await collections.jobs.insertOne(jobDocument(revocationNoticeJob(notice), now), { session });
  }
  return added;
}

/**
 * Revoked token hashes (`_id`). A TTL index on `expiresAt` lets the server remove a record once its token has
 * expired; it does so lazily (a pass about every minute), which is harmless: a record is revoked while it exists,
 * and a token past `expiresAt` fails by its own expiry anyway. `deleteExpired` still removes them on demand.
 */
export class MongoRevocationStore implements RevocationStore {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async revoke(revocations: readonly Revocation[], now: Date): Promise<number> {
    if (revocations.length === 0) return 0;
    return storeCall(() =>
      transaction<number>(this.client, (session) => revokeIn(this.collections, revocations, now, session)),
    );
  }

  async isRevoked(tokenHash: string): Promise<boolean> {
    const found = await storeCall(() =>
      this.collections.revocations.findOne({ _id: tokenHash }, { projection: { _id: 1 } }),
    );
    return found !== null;
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await storeCall(() =>
      this.collections.revocations.deleteMany({ expiresAt: { $lt: now } }),
    );
    return result.deletedCount;
  }
}
