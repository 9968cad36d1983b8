import type { Database } from 'better-sqlite3';
import { RateLimiterSQLite } from 'rate-limiter-flexible';
import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { RateLimitCounters } from '../store-driver.js';

/**
 * The table rate-limiter-flexible keeps every rate-limit counter in (it creates it on first use): failed logins
 * first, hence the name, which existing stores keep.
 */
export const LOGIN_FAILURES_TABLE = 'login_failures';

/** The rate-limit counters in the store's own file, shared by every process on it. */
export function sqliteRateLimitCounters(db: Database): RateLimitCounters {
  return {
    limiter: (keyPrefix, points, duration) =>
      new RateLimiterSQLite({
        storeClient: db,
        storeType: 'better-sqlite3',
        tableName: LOGIN_FAILURES_TABLE,
        keyPrefix,
        points,
        duration,
        // Its own timer would crash the process once the store is closed; the hourly clean-up purges instead.
        clearExpiredByTimeout: false,
      }),
    purgeExpired: async (now) => {
      purgeExpiredLoginFailures(db, now);
    },
  };
}

/**
 * Deletes counters whose window ended before `now`; returns how many. The library's own timer is not used: it
 * would keep running (and fail) after the store is closed.
 */
export function purgeExpiredLoginFailures(db: Database, now: Date): number {
  try {
    const exists = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(LOGIN_FAILURES_TABLE);
    if (!exists) return 0;
    return db
      .prepare(`DELETE FROM ${LOGIN_FAILURES_TABLE} WHERE expire IS NOT NULL AND expire < ?`)
      .run(now.getTime()).changes;
  } catch (cause) {
    throw new StoreUnavailableError('expired login counters could not be removed', { cause });
  }
}
