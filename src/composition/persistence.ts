import type { Persistence } from '../application/ports/persistence.js';
import { openMemoryPersistence } from '../adapters/persistence/memory/open-memory-persistence.js';
import {
  LOGIN_FAILURES_TABLE,
  purgeExpiredLoginFailures,
} from '../adapters/persistence/sqlite/login-failures.js';
import { openSqlitePersistence } from '../adapters/persistence/sqlite/open-sqlite-persistence.js';
import {
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { openMongoPersistence } from '../adapters/persistence/mongodb/open-mongo-persistence.js';
import type { Config } from './config.js';

export interface OpenedStore {
  readonly persistence: Persistence;
  /** Builds a failed-login limiter on the same store, so every process on it shares the counts. */
  readonly limiter: (name: string, points: number, durationSeconds: number) => RateLimiterAbstract;
  /** Forgets failed-login counters whose window is over (stored limiters only); run with the hourly cleanup. */
  readonly purgeExpiredLimits: () => Promise<void>;
}

/** Opens the store named by STORE (migrations run here) and says how to keep login counters next to it. */
export function openStore(config: Config): OpenedStore {
  switch (config.store.kind) {
    case 'memory':
      return {
        persistence: openMemoryPersistence(),
        limiter: (keyPrefix, points, duration) => new RateLimiterMemory({ keyPrefix, points, duration }),
        purgeExpiredLimits: async () => {},
      };
    case 'sqlite': {
      const store = openSqlitePersistence(config.store.path);
      return {
        persistence: store,
        purgeExpiredLimits: async () => {
          purgeExpiredLoginFailures(store.db, new Date());
        },
        limiter: (keyPrefix, points, duration) => {
          const limiter = new RateLimiterSQLite({
            storeClient: store.db,
            storeType: 'better-sqlite3',
            tableName: LOGIN_FAILURES_TABLE,
            keyPrefix,
            points,
            duration,
            // Its own timer would crash the process once the store is closed; the hourly clean-up purges instead.
            clearExpiredByTimeout: false,
          });
          return limiter;
        },
      };
    }
    case 'mongodb': {
      const store = openMongoPersistence(config.store.url);
      return {
        persistence: store,
        // Called only once the store is ready (the limiters are built on first use, after start-up).
        limiter: (keyPrefix, points, duration) =>
          new RateLimiterMongo({
            storeClient: store.client,
            dbName: store.db.databaseName,
            tableName: 'login_failures',
            keyPrefix,
            points,
            duration,
          }),
        // RateLimiterMongo keeps its own TTL index on the counters.
        purgeExpiredLimits: async () => {},
      };
    }
  }
}
