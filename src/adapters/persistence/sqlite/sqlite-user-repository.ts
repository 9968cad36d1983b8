import type { Database, Statement } from 'better-sqlite3';
import type { UserRepository } from '../../../application/ports/user-repository.js';
import type { User, Username } from '../../../domain/user.js';
import { storeCall } from './sqlite-errors.js';

interface UserRow {
  username: string;
  password_hash: string;
  public_key_pem: string;
  private_key_pem: string;
  created_at: number;
}

export class SqliteUserRepository implements UserRepository {
  private readonly insert: Statement<[UserRow]>;
  private readonly selectOne: Statement<[string], UserRow>;
  private readonly countAll: Statement<[], { n: number }>;

  constructor(db: Database) {
    // The primary key decides a race between two registrations; only that conflict is ignored.
    this.insert = db.prepare(`
      INSERT INTO users (username, password_hash, public_key_pem, private_key_pem, created_at)
      VALUES (@username, @password_hash, @public_key_pem, @private_key_pem, @created_at)
      ON CONFLICT (username) DO NOTHING`);
    this.selectOne = db.prepare('SELECT * FROM users WHERE username = ?');
    this.countAll = db.prepare('SELECT COUNT(*) AS n FROM users');
  }

  async create(user: User): Promise<'created' | 'taken'> {
    const { changes } = storeCall(() =>
      this.insert.run({
        username: user.username,
        password_hash: user.passwordHash,
        public_key_pem: user.publicKeyPem,
        private_key_pem: user.privateKeyPem,
        created_at: user.createdAt.getTime(),
      }),
    );
    return changes === 1 ? 'created' : 'taken';
  }

  async findByUsername(username: Username): Promise<User | null> {
    const row = storeCall(() => this.selectOne.get(username));
    return row
      ? {
          username: row.username as Username,
          passwordHash: row.password_hash,
          publicKeyPem: row.public_key_pem,
          privateKeyPem: row.private_key_pem,
          createdAt: new Date(row.created_at),
        }
      : null;
  }

  async count(): Promise<number> {
    return storeCall(() => this.countAll.get())?.n ?? 0;
  }
}
