import type { Filter } from 'mongodb';
import type { IssuedTokenRegistry } from '../../../application/ports/issued-token-registry.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import type { IssuedTokenDocument, MongoCollections } from './mongo-schema.js';

const fromDocument = (doc: IssuedTokenDocument): IssuedToken => ({
  tokenHash: doc._id,
  jti: doc.jti,
  username: doc.username as Username,
  sessionJti: doc.sessionJti,
  l1Server: doc.l1Server as L1ServerUrl | null,
  issuedAt: doc.issuedAt,
  expiresAt: doc.expiresAt,
});

/** Issued tokens keyed by token hash (`_id`); each list is one index range (see `INDEXES`). */
export class MongoIssuedTokenRegistry implements IssuedTokenRegistry {
  constructor(private readonly collections: MongoCollections) {}

  async add(token: IssuedToken): Promise<void> {
    // $setOnInsert: a second add of the same hash changes nothing, whatever else it carries.
    await storeCall(() =>
      this.collections.issuedTokens.updateOne(
        { _id: token.tokenHash },
        {
          $setOnInsert: {
            jti: token.jti,
            username: token.username,
            sessionJti: token.sessionJti,
            l1Server: token.l1Server,
            issuedAt: token.issuedAt,
            expiresAt: token.expiresAt,
          },
        },
        { upsert: true },
      ),
    );
  }

  async listActiveBySession(sessionJti: string, now: Date): Promise<IssuedToken[]> {
    return this.listActive({ sessionJti }, now);
  }

  async listActiveByUser(username: Username, now: Date): Promise<IssuedToken[]> {
    return this.listActive({ username }, now);
  }

  async listActiveScoped(username: Username, l1Server: L1ServerUrl, now: Date): Promise<IssuedToken[]> {
    return this.listActive({ username, l1Server }, now);
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await storeCall(() =>
      this.collections.issuedTokens.deleteMany({ expiresAt: { $lt: now } }),
    );
    return result.deletedCount;
  }

  private async listActive(filter: Filter<IssuedTokenDocument>, now: Date): Promise<IssuedToken[]> {
    const docs = await storeCall(() =>
      this.collections.issuedTokens
        .find({ ...filter, expiresAt: { $gt: now } })
        .sort({ issuedAt: 1, _id: 1 })
        .toArray(),
    );
    return docs.map(fromDocument);
  }
}
