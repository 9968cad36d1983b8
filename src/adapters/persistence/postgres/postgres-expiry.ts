// The hourly clean-ups' deletes, in short statements: however many records expired at once (a million revocations
// from one mass logout 30 days ago), each statement deletes a batch and stays far inside the 10 s statement_timeout
// every request runs under — one DELETE of them all could outlast it, fail, and fail again every hour while the
// table grows. SKIP LOCKED lets the instances that run the clean-up at the same moment share the rows, not queue.
import type { Queryable } from './postgres-sql.js';

/** Rows deleted per statement. */
export const EXPIRED_BATCH = 5_000;

/** Deletes the rows of `table` whose `column` is before `before`, a batch per statement; how many it deleted. */
export async function deleteExpiredRows(
  db: Queryable,
  table: 'revocations' | 'issued_tokens' | 'authorization_codes',
  key: 'token_hash' | 'code_hash',
  before: Date,
): Promise<number> {
  const text = `DELETE FROM ${table} WHERE ${key} IN
    (SELECT ${key} FROM ${table} WHERE expires_at < $1 LIMIT ${EXPIRED_BATCH} FOR UPDATE SKIP LOCKED)`;
  let deleted = 0;
  for (;;) {
    const { count } = await db.query(text, [before]);
    deleted += count;
    if (count < EXPIRED_BATCH) return deleted;
  }
}
