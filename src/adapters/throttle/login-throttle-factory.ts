import type { Database } from 'better-sqlite3';
import type { MongoClient } from 'mongodb';
import {
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { LOGIN_FAILURES_TABLE, purgeExpiredLoginFailures } from './login-failures.js';
import { RateLimiterLoginThrottle } from './rate-limiter-login-throttle.js';

/** Where the counters live: next to the rest of the data, so every process on the store shares them. */
export type CounterStore =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly db: Database }
  | { readonly kind: 'mongodb'; readonly client: MongoClient; readonly dbName: string };

export interface LoginLimits {
  readonly maxFailuresPerUsername: number;
  readonly maxFailuresPerAddress: number;
  readonly windowSeconds: number;
}

export interface LoginCounters {
  readonly throttle: RateLimiterLoginThrottle;
  /** Forgets counters whose window is over (stored counters only); run with the hourly clean-up. */
  purgeExpired(now: Date): Promise<void>;
}

function limiter(
  store: CounterStore,
  keyPrefix: string,
  points: number,
  duration: number,
): RateLimiterAbstract {
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory({ keyPrefix, points, duration });
    case 'sqlite':
      return new RateLimiterSQLite({
        storeClient: store.db,
        storeType: 'better-sqlite3',
        tableName: LOGIN_FAILURES_TABLE,
        keyPrefix,
        points,
        duration,
        // Its own timer would crash the process once the store is closed; the hourly clean-up purges instead.
        clearExpiredByTimeout: false,
      });
    case 'mongodb':
      // Built on first use, once the store is connected; RateLimiterMongo keeps its own TTL index.
      return new RateLimiterMongo({
        storeClient: store.client,
        dbName: store.dbName,
        tableName: 'login_failures',
        keyPrefix,
        points,
        duration,
      });
  }
}

/** The failed-login limits of API.md §1 on the given store: by username and by client address. */
export function loginCounters(store: CounterStore, limits: LoginLimits): LoginCounters {
  return {
    throttle: new RateLimiterLoginThrottle(
      limiter(store, 'login_user', limits.maxFailuresPerUsername, limits.windowSeconds),
      limiter(store, 'login_addr', limits.maxFailuresPerAddress, limits.windowSeconds),
    ),
    purgeExpired: async (now) => {
      if (store.kind === 'sqlite') purgeExpiredLoginFailures(store.db, now);
    },
  };
}
