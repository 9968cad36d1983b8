import type { Persistence } from '../application/ports/persistence.js';
import { openMemoryPersistence } from '../adapters/persistence/memory/open-memory-persistence.js';
import { openSqlitePersistence } from '../adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { CounterStore } from '../adapters/throttle/rate-limits.js';
import type { Config } from './config.js';

export interface OpenedStore {
  readonly persistence: Persistence;
  /** The same store, for the failed-login counters kept next to the data. */
  readonly counters: CounterStore;
}

/**
 * Opens the store named by STORE (migrations run here). The MongoDB adapter, and with it the driver (about 20 MiB
 * of memory), is loaded only when STORE names MongoDB.
 */
export async function openStore(config: Config): Promise<OpenedStore> {
  switch (config.store.kind) {
    case 'memory':
      return { persistence: openMemoryPersistence(), counters: { kind: 'memory' } };
    case 'sqlite': {
      const store = openSqlitePersistence(config.store.path);
      return { persistence: store, counters: { kind: 'sqlite', db: store.db } };
    }
    case 'mongodb': {
      const { openMongoPersistence } =
        await import('../adapters/persistence/mongodb/open-mongo-persistence.js');
      const store = openMongoPersistence(config.store.url);
      return {
        persistence: store,
        counters: { kind: 'mongodb', client: store.client, dbName: store.db.databaseName },
      };
    }
  }
}
