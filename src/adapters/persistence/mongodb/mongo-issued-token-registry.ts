import type { Filter } from 'mongodb';
import type { IssuedTokenRegistry } from '../../../application/ports/issued-token-registry.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import { ISSUED_TOKEN_DOCUMENTS, type IssuedTokenDocument } from './codecs/token-documents.js';
import { withoutId } from './mongo-codec.js';
import type { MongoCollections } from './mongo-schema.js';

/** Issued tokens keyed by token hash (`_id`); each list is one index range (see `INDEXES`). */
export class MongoIssuedTokenRegistry implements IssuedTokenRegistry {
  constructor(private readonly collections: MongoCollections) {}

  async add(token: IssuedToken): Promise<void> {
    // $setOnInsert: a second add of the same hash changes nothing, whatever else it carries.
    await storeCall(() =>
      this.collections.issuedTokens.updateOne(
        { _id: token.tokenHash },
        { $setOnInsert: withoutId(ISSUED_TOKEN_DOCUMENTS.toDocument(token)) },
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
    return docs.map((doc) => ISSUED_TOKEN_DOCUMENTS.fromDocument(doc));
  }
}
