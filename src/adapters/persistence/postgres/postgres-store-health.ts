import { StoreUnavailableError } from '../../../application/ports/errors.js';
import type { StoreHealth } from '../../../application/ports/store-health.js';
import type { Queryable } from './postgres-sql.js';

/**
 * How long a ping may take: /readyz answers 503 after this rather than hanging while no connection can be made or
 * every connection of the pool is busy (the statement timeout cannot help there: no statement has started).
 */
const PING_DEADLINE_MS = 2000;

export class PostgresStoreHealth implements StoreHealth {
  constructor(private readonly db: Queryable) {}

  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new StoreUnavailableError(`the PostgreSQL store did not answer within ${PING_DEADLINE_MS} ms`),
          ),
        PING_DEADLINE_MS,
      );
    });
    try {
      await Promise.race([this.db.query('SELECT 1'), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
