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
import type { PostgresDatabase } from './postgres-database.js';
import { deleteExpiredRows } from './postgres-expiry.js';

type Row = { record: string };

export class PostgresAuthorizationCodes implements AuthorizationCodeStore {
  constructor(private readonly db: PostgresDatabase) {}

  async save(code: AuthorizationCode): Promise<void> {
    const stored = storedAuthorizationCode(code);
    await this.db.query(
      'INSERT INTO authorization_codes (code_hash, record, expires_at, used_at) VALUES ($1, $2, $3, NULL)',
      [code.codeHash, JSON.stringify(stored), new Date(stored.expiresAt)],
    );
  }

  async find(codeHash: string): Promise<AuthorizationCode | null> {
    const [row] = await this.db.query<Row>('SELECT record FROM authorization_codes WHERE code_hash = $1', [
      codeHash,
    ]);
    return row ? authorizationCodeOf(JSON.parse(row.record) as StoredAuthorizationCode) : null;
  }

  async redeem(codeHash: string, issued: IssuedToken, now: Date): Promise<Redemption | null> {
    // The code's row locked before it is read: of two exchanges (on any instances), one finds it unused.
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<Row>(
        'SELECT record FROM authorization_codes WHERE code_hash = $1 FOR UPDATE',
        [codeHash],
      );
      if (!row) return null;
      const stored = JSON.parse(row.record) as StoredAuthorizationCode;
      if (stored.usedAt !== null) return { kind: 'used', code: authorizationCodeOf(stored) };
      const used = { ...stored, usedAt: now.getTime(), issued: storedIssuedToken(issued) };
      await tx.query('UPDATE authorization_codes SET used_at = $1, record = $2 WHERE code_hash = $3', [
        now,
        JSON.stringify(used),
        codeHash,
      ]);
      return { kind: 'redeemed', code: authorizationCodeOf(used) } satisfies Redemption;
    });
  }

  async deleteExpired(before: Date): Promise<number> {
    return deleteExpiredRows(this.db, 'authorization_codes', 'code_hash', before);
  }
}
