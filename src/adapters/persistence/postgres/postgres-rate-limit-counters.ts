import { createRequire } from 'node:module';
import { RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { RateLimitCounters } from '../store-driver.js';
import type { Queryable } from './postgres-sql.js';

interface CounterRow {
  points: number;
  expire: Date | null;
}

/**
 * Adds `points` to the counter in one statement (INSERT … ON CONFLICT … DO UPDATE … RETURNING: atomic whichever
 * instance runs it): a counter whose window ended starts again with these points and a new window.
 */
export const ADD_POINTS = `
  INSERT INTO rate_limit_counters (key, points, expire) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN rate_limit_counters.expire IS NULL OR rate_limit_counters.expire > $4
      THEN rate_limit_counters.points + EXCLUDED.points ELSE EXCLUDED.points END,
    expire = CASE WHEN rate_limit_counters.expire IS NULL OR rate_limit_counters.expire > $4
      THEN rate_limit_counters.expire ELSE EXCLUDED.expire END
  RETURNING points, expire`;

const SET = `
  INSERT INTO rate_limit_counters (key, points, expire) VALUES ($1, $2, $3)
  ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire
  RETURNING points, expire`;

/**
 * rate-limiter-flexible's store limiter over the store's own table (migration 6): its RateLimiterPostgres takes
 * only node-postgres clients, so this is a small subclass of its store base class — the library keeps the rules
 * (consume, penalty, reward, block, get, delete), this class reads and writes one row per key.
 *
 * The library's base class of store limiters: in its type declarations, not among its exports, so it is required
 * from its file (the package has no export map to forbid that).
 */
const StoreLimiter = createRequire(import.meta.url)(
  'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js',
) as typeof RateLimiterStoreAbstract;

class PostgresRateLimiter extends StoreLimiter {
  constructor(
    private readonly db: Queryable,
    options: { keyPrefix: string; points: number; duration: number },
  ) {
    super({ ...options, storeClient: db });
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<CounterRow> {
    const now = Date.now();
    const expire = msDuration > 0 ? new Date(now + msDuration) : null;
    const [row] = await this.db.query<CounterRow>(
      forceExpire ? SET : ADD_POINTS,
      forceExpire ? [key, points, expire] : [key, points, expire, new Date(now)],
    );
    if (!row) throw new Error(`rate-limit counter ${key} was not written`);
    return row;
  }

  async _get(key: string): Promise<CounterRow | null> {
    const [row] = await this.db.query<CounterRow>(
      'SELECT points, expire FROM rate_limit_counters WHERE key = $1 AND (expire IS NULL OR expire > $2)',
      [key, new Date()],
    );
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM rate_limit_counters WHERE key = $1', [key])).count > 0;
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: CounterRow): RateLimiterRes {
    const isFirstInDuration = changedPoints === row.points;
    const consumedPoints = isFirstInDuration ? changedPoints : row.points;
    return new RateLimiterRes(
      Math.max(this.points - consumedPoints, 0),
      row.expire ? Math.max(row.expire.getTime() - Date.now(), 0) : -1,
      consumedPoints,
      isFirstInDuration,
    );
  }
}

/** The rate-limit counters in the store's database, shared by every instance on it. */
export function postgresRateLimitCounters(db: Queryable): RateLimitCounters {
  return {
    limiter: (keyPrefix, points, duration) => new PostgresRateLimiter(db, { keyPrefix, points, duration }),
    // Safe on every instance at once: a row another instance deleted meanwhile is skipped.
    purgeExpired: async (now) => {
      await db.query('DELETE FROM rate_limit_counters WHERE expire IS NOT NULL AND expire < $1', [now]);
    },
  };
}
