import type { Database, Statement } from 'better-sqlite3';
import type { StoreHealth } from '../../../application/ports/store-health.js';
import { storeCall } from './sqlite-errors.js';

export class SqliteStoreHealth implements StoreHealth {
  private readonly select1: Statement<[], unknown>;

  constructor(db: Database) {
    this.select1 = db.prepare('SELECT 1');
  }

  async ping(): Promise<void> {
    storeCall(() => this.select1.get());
  }
}
