import type { Database, Statement, Transaction } from 'better-sqlite3';
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
import { storeCall } from './sqlite-errors.js';

type Row = { record: string };

export class SqliteAuthorizationCodes implements AuthorizationCodeStore {
  private readonly insert: Statement<[string, string, number]>;
  private readonly select: Statement<[string], Row>;
  private readonly markUsed: Statement<[number, string, string]>;
  private readonly deleteBefore: Statement<[number]>;
  private readonly redeemTransaction: Transaction<
    (codeHash: string, issued: IssuedToken, now: Date) => Redemption | null
  >;

  constructor(db: Database) {
    this.insert = db.prepare(
      'INSERT INTO authorization_codes (code_hash, record, expires_at, used_at) VALUES (?, ?, ?, NULL)',
    );
    this.select = db.prepare('SELECT record FROM authorization_codes WHERE code_hash = ?');
    // The compare-and-set: only the first exchange finds `used_at` empty.
    this.markUsed = db.prepare(
      'UPDATE authorization_codes SET used_at = ?, record = ? WHERE code_hash = ? AND used_at IS NULL',
    );
    this.deleteBefore = db.prepare('DELETE FROM authorization_codes WHERE expires_at < ?');
    this.redeemTransaction = db.transaction((codeHash, issued, now) => {
      const row = this.select.get(codeHash);
      if (!row) return null;
      const stored = JSON.parse(row.record) as StoredAuthorizationCode;
      if (stored.usedAt !== null) return { kind: 'used', code: authorizationCodeOf(stored) };
      const used = { ...stored, usedAt: now.getTime(), issued: storedIssuedToken(issued) };
      this.markUsed.run(now.getTime(), JSON.stringify(used), codeHash);
      return { kind: 'redeemed', code: authorizationCodeOf(used) };
    });
  }

  async save(code: AuthorizationCode): Promise<void> {
    const stored = storedAuthorizationCode(code);
    storeCall(() => this.insert.run(code.codeHash, JSON.stringify(stored), stored.expiresAt));
  }

  async find(codeHash: string): Promise<AuthorizationCode | null> {
    const row = storeCall(() => this.select.get(codeHash));
    return row ? authorizationCodeOf(JSON.parse(row.record) as StoredAuthorizationCode) : null;
  }

  async redeem(codeHash: string, issued: IssuedToken, now: Date): Promise<Redemption | null> {
    // IMMEDIATE: the write lock is taken before the read, so two processes cannot both read the code unused.
    return storeCall(() => this.redeemTransaction.immediate(codeHash, issued, now));
  }

  async deleteExpired(before: Date): Promise<number> {
    return storeCall(() => this.deleteBefore.run(before.getTime())).changes;
  }
}
