import type { Db } from 'mongodb';
import type { StoreHealth } from '../../../application/ports/store-health.js';
import { storeCall } from './mongo-errors.js';

export class MongoStoreHealth implements StoreHealth {
  constructor(private readonly db: Db) {}

  /** The `ping` command: answered by the server without touching data, once it is reachable. */
  async ping(): Promise<void> {
    await storeCall(() => this.db.command({ ping: 1 }));
  }
}
