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
import { MemoryDatabase } from './memory-database.js';

/** Codes as JSON text by hash: a caller can change neither what it saved nor what it read. */
export class InMemoryAuthorizationCodes implements AuthorizationCodeStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async save(code: AuthorizationCode): Promise<void> {
    this.db.assertOpen();
    if (this.db.authorizationCodes.has(code.codeHash)) throw new Error('an authorization code seen before');
    this.db.authorizationCodes.set(code.codeHash, JSON.stringify(storedAuthorizationCode(code)));
  }

  async find(codeHash: string): Promise<AuthorizationCode | null> {
    this.db.assertOpen();
    const stored = this.stored(codeHash);
    return stored && authorizationCodeOf(stored);
  }

  async redeem(codeHash: string, issued: IssuedToken, now: Date): Promise<Redemption | null> {
    this.db.assertOpen();
    const stored = this.stored(codeHash);
    if (!stored) return null;
    if (stored.usedAt !== null) return { kind: 'used', code: authorizationCodeOf(stored) };
    const used = { ...stored, usedAt: now.getTime(), issued: storedIssuedToken(issued) };
    this.db.authorizationCodes.set(codeHash, JSON.stringify(used));
    return { kind: 'redeemed', code: authorizationCodeOf(used) };
  }

  async deleteExpired(before: Date): Promise<number> {
    this.db.assertOpen();
    let deleted = 0;
    for (const [hash, text] of this.db.authorizationCodes) {
      if ((JSON.parse(text) as StoredAuthorizationCode).expiresAt < before.getTime()) {
        this.db.authorizationCodes.delete(hash);
        deleted++;
      }
    }
    return deleted;
  }

  private stored(codeHash: string): StoredAuthorizationCode | null {
    const text = this.db.authorizationCodes.get(codeHash);
    return text === undefined ? null : (JSON.parse(text) as StoredAuthorizationCode);
  }
}
