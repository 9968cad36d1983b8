import type { Database, Statement } from 'better-sqlite3';
import type { FollowerRepository } from '../../../application/ports/follower-repository.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './sqlite-errors.js';

export class SqliteFollowerRepository implements FollowerRepository {
  private readonly countByUser: Statement<[string], { n: number }>;

  constructor(db: Database) {
    // Counts entries of the primary key index under one username; no table row is read.
    this.countByUser = db.prepare('SELECT COUNT(*) AS n FROM followers WHERE username = ?');
  }

  async count(username: Username): Promise<number> {
    return storeCall(() => this.countByUser.get(username))?.n ?? 0;
  }
}
