import type {
  AuthorizationCodeStore,
  Redemption,
} from '../../../application/ports/authorization-code-store.js';
import type { AuthorizationCode } from '../../../domain/oauth.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import {
  authorizationCodeOf,
  storedAuthorizationCode,
  storedIssuedToken,
  type StoredAuthorizationCode,
} from '../authorization-code-record.js';
import { storeCall } from './mongo-errors.js';
import type { AuthorizationCodeDocument, MongoCollections } from './mongo-schema.js';

const codeOf = (doc: AuthorizationCodeDocument) =>
  authorizationCodeOf(JSON.parse(doc.record) as StoredAuthorizationCode);

/** One document per code; a redemption is a conditional update on `usedAt: null`, which one writer wins. */
export class MongoAuthorizationCodes implements AuthorizationCodeStore {
  constructor(private readonly collections: MongoCollections) {}

  async save(code: AuthorizationCode): Promise<void> {
    await storeCall(() =>
      this.collections.authorizationCodes.insertOne({
        _id: code.codeHash,
        record: JSON.stringify(storedAuthorizationCode(code)),
        expiresAt: code.expiresAt,
        usedAt: null,
      }),
    );
  }

  async find(codeHash: string): Promise<AuthorizationCode | null> {
    const doc = await storeCall(() => this.collections.authorizationCodes.findOne({ _id: codeHash }));
    return doc && codeOf(doc);
  }

  async redeem(codeHash: string, issued: IssuedToken, now: Date): Promise<Redemption | null> {
    const codes = this.collections.authorizationCodes;
    const doc = await storeCall(() => codes.findOne({ _id: codeHash }));
    if (!doc) return null;
    if (doc.usedAt !== null) return { kind: 'used', code: codeOf(doc) };
    const stored = JSON.parse(doc.record) as StoredAuthorizationCode;
    const record = JSON.stringify({ ...stored, usedAt: now.getTime(), issued: storedIssuedToken(issued) });
    const { modifiedCount } = await storeCall(() =>
      codes.updateOne({ _id: codeHash, usedAt: null }, { $set: { usedAt: now, record } }),
    );
    if (modifiedCount === 1) return { kind: 'redeemed', code: codeOf({ ...doc, usedAt: now, record }) };
    // Another exchange redeemed it between the read and the update: this one is the second use.
    const winner = await storeCall(() => codes.findOne({ _id: codeHash }));
    return winner && { kind: 'used', code: codeOf(winner) };
  }

  async deleteExpired(before: Date): Promise<number> {
    const { deletedCount } = await storeCall(() =>
      this.collections.authorizationCodes.deleteMany({ expiresAt: { $lt: before } }),
    );
    return deletedCount;
  }
}
