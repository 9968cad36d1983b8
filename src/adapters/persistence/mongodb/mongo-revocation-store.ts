import type { ClientSession, MongoClient } from 'mongodb';
import type { RevocationStore } from '../../../application/ports/revocation-store.js';
import { revocationNoticeJob } from '../../../domain/jobs.js';
import type { Revocation } from '../../../domain/revocation.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument } from './mongo-job-document.js';
import { REVOCATION_DOCUMENTS } from './codecs/token-documents.js';
import { withoutId } from './mongo-codec.js';
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
      { $setOnInsert: withoutId(REVOCATION_DOCUMENTS.toDocument({ ...record, revokedAt: now })) },
      { upsert: true, session },
    );
    if (upsertedCount !== 1) continue;
    added++;
    if (notice) await collections.jobs.insertOne(jobDocument(revocationNoticeJob(notice), now), { session });
  }
  return added;
}

/**
 * The read behind every token check: always the primary, whatever the URL's readPreference says — a secondary may
 * lag and miss a revocation, letting a revoked token through. Read concern "local", on purpose, not "majority": a
 * revocation is answered only once committed with w: majority, and a primary's local view holds every
 * majority-committed write (a new primary applies them all before it accepts operations), while its majority
 * snapshot may lag after an election and miss one (SERVER-53813, fixed in 8.0). What "local" may also show — a
 * revocation not yet majority-committed, which a failover could roll back — errs on the closed side. Neither level
 * closes the seconds a deposed primary may still answer during a partition (SERVER-89619); "linearizable" would, at
 * a majority round-trip per token check, which the hot path cannot pay.
 */
const REVOCATION_READ = {
  readPreference: 'primary',
  readConcern: { level: 'local' },
  projection: { _id: 1 },
} as const;

/**
 * Revoked token hashes (`_id`). A TTL index on `expiresAt` lets the server remove a record some time after its
 * token has expired (REVOCATION_TTL_MARGIN_SECONDS later, by a pass about every minute); a record is revoked while
 * it exists, and a token past `expiresAt` fails by its own expiry anyway. The TTL index is a backstop, not the
 * cleanup: `deleteExpired` (run hourly, on L2's clock) removes them at expiry and says how many.
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
      this.collections.revocations.findOne({ _id: tokenHash }, REVOCATION_READ),
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
