import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { UserRepository } from '../../../application/ports/user-repository.js';
import type { User, Username } from '../../../domain/user.js';
import { storeCall } from './sqlite-errors.js';
import { NO_POSITION_BOUND } from './sqlite-seeks.js';

interface UserRow {
  seq: number;
  username: string;
  password_hash: string;
  public_key_pem: string;
  private_key_pem: string;
  created_at: number;
}

const COLUMNS = 'seq, username, password_hash, public_key_pem, private_key_pem, created_at';

const fromRow = (row: UserRow): User => ({
  username: row.username as Username,
  passwordHash: row.password_hash,
  publicKeyPem: row.public_key_pem,
  privateKeyPem: row.private_key_pem,
  createdAt: new Date(row.created_at),
});

const positioned = (row: UserRow): Positioned<User> => ({ position: row.seq, value: fromRow(row) });

/** Positions are `seq`, handed out in registration order by AUTOINCREMENT (users are never deleted). */
export class SqliteUserRepository implements UserRepository {
  private readonly insertNew: Transaction<(user: User) => boolean>;
  private readonly selectOne: Statement<[string], UserRow>;
  private readonly countAll: Statement<[], { n: number }>;
  private readonly selectOlder: Statement<[number, number], UserRow>;
  private readonly selectNewer: Statement<[number, number], UserRow>;

  constructor(db: Database) {
    // The unique username decides a race between two registrations; only that conflict is ignored.
    const insert = db.prepare<[Omit<UserRow, 'seq'>]>(`
      INSERT INTO users (username, password_hash, public_key_pem, private_key_pem, created_at)
      VALUES (@username, @password_hash, @public_key_pem, @private_key_pem, @created_at)
      ON CONFLICT (username) DO NOTHING`);
    const countOne = db.prepare("UPDATE counters SET value = value + 1 WHERE name = 'users'");
    this.insertNew = db.transaction((user: User) => {
      const { changes } = insert.run({
        username: user.username,
        password_hash: user.passwordHash,
        public_key_pem: user.publicKeyPem,
        private_key_pem: user.privateKeyPem,
        created_at: user.createdAt.getTime(),
      });
      if (changes !== 1) return false;
      countOne.run();
      return true;
    });
    this.selectOne = db.prepare(`SELECT ${COLUMNS} FROM users WHERE username = ?`);
    this.countAll = db.prepare("SELECT value AS n FROM counters WHERE name = 'users'");
    this.selectOlder = db.prepare(`SELECT ${COLUMNS} FROM users WHERE seq < ? ORDER BY seq DESC LIMIT ?`);
    this.selectNewer = db.prepare(`SELECT ${COLUMNS} FROM users WHERE seq > ? ORDER BY seq LIMIT ?`);
  }

  async create(user: User): Promise<'created' | 'taken'> {
    return storeCall(() => this.insertNew.immediate(user)) ? 'created' : 'taken';
  }

  async findByUsername(username: Username): Promise<User | null> {
    const row = storeCall(() => this.selectOne.get(username));
    return row ? fromRow(row) : null;
  }

  async count(): Promise<number> {
    return storeCall(() => this.countAll.get())?.n ?? 0;
  }

  async listOlder(before: number | null, limit: number): Promise<Positioned<User>[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    return storeCall(() => this.selectOlder.all(before ?? NO_POSITION_BOUND, limit)).map(positioned);
  }

  async listNewer(after: number, limit: number): Promise<Positioned<User>[]> {
    if (limit <= 0) return [];
    return storeCall(() => this.selectNewer.all(after, limit)).map(positioned);
  }
}
