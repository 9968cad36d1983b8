import type { StoreHealth } from '../../../application/ports/store-health.js';
import { MemoryDatabase } from './memory-database.js';

export class InMemoryStoreHealth implements StoreHealth {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async ping(): Promise<void> {
    this.db.assertOpen();
  }
}
