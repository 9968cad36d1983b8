import type { Persistence } from '../application/ports/persistence.js';
import { openMemoryPersistence } from '../adapters/persistence/memory/open-memory-persistence.js';
import { openSqlitePersistence } from '../adapters/persistence/sqlite/open-sqlite-persistence.js';
import { RateLimiterMemory, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ConfigError } from './config-error.js';
import type { Config } from './config.js';

export interface OpenedStore {
  readonly persistence: Persistence;
  /** Builds a failed-login limiter on the same store, so every process on it shares the counts. */
  readonly limiter: (name: string, points: number, durationSeconds: number) => RateLimiterAbstract;
}

/** Opens the store named by STORE (migrations run here) and says how to keep login counters next to it. */
export function openStore(config: Config): OpenedStore {
  switch (config.store.kind) {
    case 'memory':
      return {
        persistence: openMemoryPersistence(),
        limiter: (keyPrefix, points, duration) => new RateLimiterMemory({ keyPrefix, points, duration }),
      };
    case 'sqlite': {
      const store = openSqlitePersistence(config.store.path);
      return {
        persistence: store,
        limiter: (keyPrefix, points, duration) =>
          new RateLimiterSQLite({
            storeClient: store.db,
            storeType: 'better-sqlite3',
            tableName: 'login_failures',
            keyPrefix,
            points,
            duration,
            clearExpiredByTimeout: false,
          }),
      };
    }
    case 'mongodb':
      throw new ConfigError(
        'STORE: the MongoDB store is not available in this version; use sqlite: or memory:',
      );
  }
}
