import type { StoreHealth } from '../../../application/ports/store-health.js';
import type { Queryable } from './postgres-sql.js';

export class PostgresStoreHealth implements StoreHealth {
  constructor(private readonly db: Queryable) {}

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}
