import type { IssuedTokenRegistry } from '../../../application/ports/issued-token-registry.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { ISSUED_TOKEN_ROWS } from './codecs/token-rows.js';
import { insertSql, type RowOf } from './postgres-codec.js';
import { named, type Queryable } from './postgres-sql.js';
import { deleteExpiredRows } from './postgres-expiry.js';

type IssuedTokenRow = RowOf<typeof ISSUED_TOKEN_ROWS.columns>;

const fromRow = (row: IssuedTokenRow): IssuedToken => ISSUED_TOKEN_ROWS.fromRow(row);

/** A token hash is unique: a record already there stays (the same token, recorded twice). */
const INSERT = named<IssuedTokenRow>(insertSql(ISSUED_TOKEN_ROWS, 'ON CONFLICT (token_hash) DO NOTHING'));

/** The one way a token record is written, shared with registration (the first session's record). */
export async function insertIssuedToken(db: Queryable, token: IssuedToken): Promise<void> {
  await INSERT.run(db, ISSUED_TOKEN_ROWS.toRow(token));
}

const SELECT = `SELECT ${ISSUED_TOKEN_ROWS.list} FROM issued_tokens`;

export class PostgresIssuedTokenRegistry implements IssuedTokenRegistry {
  constructor(private readonly db: Queryable) {}

  async add(token: IssuedToken): Promise<void> {
    await insertIssuedToken(this.db, token);
  }

  async listActiveBySession(sessionJti: string, now: Date): Promise<IssuedToken[]> {
    return this.list(`WHERE session_jti = $1 AND expires_at > $2`, [sessionJti, now]);
  }

  async listActiveByUser(username: Username, now: Date): Promise<IssuedToken[]> {
    return this.list(`WHERE username = $1 AND expires_at > $2`, [username, now]);
  }

  async listActiveScoped(username: Username, l1Server: L1ServerUrl, now: Date): Promise<IssuedToken[]> {
    return this.list(`WHERE username = $1 AND l1_server = $2 AND expires_at > $3`, [username, l1Server, now]);
  }

  async deleteExpired(now: Date): Promise<number> {
    return deleteExpiredRows(this.db, 'issued_tokens', 'token_hash', now);
  }

  private async list(where: string, params: unknown[]): Promise<IssuedToken[]> {
    const rows = await this.db.query<IssuedTokenRow>(
      `${SELECT} ${where} ORDER BY issued_at, token_hash`,
      params,
    );
    return rows.map(fromRow);
  }
}
