import type { Database } from 'better-sqlite3';
import { StoreUnavailableError } from '../../application/ports/errors.js';

/**
 * The table rate-limiter-flexible keeps every rate-limit counter in (it creates it on first use): failed logins
 * first, hence the name, which existing stores keep.
 */
export const LOGIN_FAILURES_TABLE = 'login_failures';

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
