import type { Database, Statement } from 'better-sqlite3';
import type { IssuedTokenRegistry } from '../../../application/ports/issued-token-registry.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './sqlite-errors.js';

interface IssuedTokenRow {
  token_hash: string;
  jti: string;
  username: string;
  session_jti: string | null;
  l1_server: string | null;
  issued_at: number;
  expires_at: number;
}

const fromRow = (row: IssuedTokenRow): IssuedToken => ({
  tokenHash: row.token_hash,
  jti: row.jti,
  username: row.username as Username,
  sessionJti: row.session_jti,
  l1Server: row.l1_server as L1ServerUrl | null,
  issuedAt: new Date(row.issued_at),
  expiresAt: new Date(row.expires_at),
});

/** Prepares the one way a token record is written, shared with registration (the first session's record). */
export function prepareIssuedTokenInsert(db: Database): (token: IssuedToken) => void {
  const insert = db.prepare<[IssuedTokenRow]>(`
    INSERT OR IGNORE INTO issued_tokens (token_hash, jti, username, session_jti, l1_server, issued_at, expires_at)
    VALUES (@token_hash, @jti, @username, @session_jti, @l1_server, @issued_at, @expires_at)`);
  return (token) => {
    insert.run({
      token_hash: token.tokenHash,
      jti: token.jti,
      username: token.username,
      session_jti: token.sessionJti,
      l1_server: token.l1Server,
      issued_at: token.issuedAt.getTime(),
      expires_at: token.expiresAt.getTime(),
    });
  };
}

export class SqliteIssuedTokenRegistry implements IssuedTokenRegistry {
  private readonly insert: (token: IssuedToken) => void;
  private readonly bySession: Statement<[string, number], IssuedTokenRow>;
  private readonly byUser: Statement<[string, number], IssuedTokenRow>;
  private readonly scoped: Statement<[string, string, number], IssuedTokenRow>;
  private readonly deleteBefore: Statement<[number]>;

  constructor(db: Database) {
    this.insert = prepareIssuedTokenInsert(db);
    this.bySession = db.prepare(
      'SELECT * FROM issued_tokens WHERE session_jti = ? AND expires_at > ? ORDER BY issued_at, token_hash',
    );
    this.byUser = db.prepare(
      'SELECT * FROM issued_tokens WHERE username = ? AND expires_at > ? ORDER BY issued_at, token_hash',
    );
    this.scoped = db.prepare(
      `SELECT * FROM issued_tokens WHERE username = ? AND l1_server = ? AND expires_at > ?
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
