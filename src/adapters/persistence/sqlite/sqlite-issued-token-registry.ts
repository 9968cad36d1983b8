import type { Database, Statement } from 'better-sqlite3';
import type { IssuedTokenRegistry } from '../../../application/ports/issued-token-registry.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { ISSUED_TOKEN_ROWS } from './codecs/token-rows.js';
import { insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';

type IssuedTokenRow = RowOf<typeof ISSUED_TOKEN_ROWS.columns>;

const fromRow = (row: IssuedTokenRow): IssuedToken => ISSUED_TOKEN_ROWS.fromRow(row);

/** Prepares the one way a token record is written, shared with registration (the first session's record). */
export function prepareIssuedTokenInsert(db: Database): (token: IssuedToken) => void {
  const insert = db.prepare<[IssuedTokenRow]>(insertSql(ISSUED_TOKEN_ROWS, '', 'INSERT OR IGNORE'));
  return (token) => {
    insert.run(ISSUED_TOKEN_ROWS.toRow(token));
  };
}

const SELECT = `SELECT ${ISSUED_TOKEN_ROWS.list} FROM issued_tokens`;

export class SqliteIssuedTokenRegistry implements IssuedTokenRegistry {
  private readonly insert: (token: IssuedToken) => void;
  private readonly bySession: Statement<[string, number], IssuedTokenRow>;
  private readonly byUser: Statement<[string, number], IssuedTokenRow>;
  private readonly scoped: Statement<[string, string, number], IssuedTokenRow>;
  private readonly deleteBefore: Statement<[number]>;

  constructor(db: Database) {
    this.insert = prepareIssuedTokenInsert(db);
    this.bySession = db.prepare(
      `${SELECT} WHERE session_jti = ? AND expires_at > ? ORDER BY issued_at, token_hash`,
    );
    this.byUser = db.prepare(
      `${SELECT} WHERE username = ? AND expires_at > ? ORDER BY issued_at, token_hash`,
    );
    this.scoped = db.prepare(
      `${SELECT} WHERE username = ? AND l1_server = ? AND expires_at > ?
       ORDER BY issued_at, token_hash`,
    );
    this.deleteBefore = db.prepare('DELETE FROM issued_tokens WHERE expires_at < ?');
  }

  async add(token: IssuedToken): Promise<void> {
    storeCall(() => this.insert(token));
  }

  async listActiveBySession(sessionJti: string, now: Date): Promise<IssuedToken[]> {
    return storeCall(() => this.bySession.all(sessionJti, now.getTime())).map(fromRow);
  }

  async listActiveByUser(username: Username, now: Date): Promise<IssuedToken[]> {
    return storeCall(() => this.byUser.all(username, now.getTime())).map(fromRow);
  }

  async listActiveScoped(username: Username, l1Server: L1ServerUrl, now: Date): Promise<IssuedToken[]> {
    return storeCall(() => this.scoped.all(username, l1Server, now.getTime())).map(fromRow);
  }

  async deleteExpired(now: Date): Promise<number> {
    return storeCall(() => this.deleteBefore.run(now.getTime())).changes;
  }
}
