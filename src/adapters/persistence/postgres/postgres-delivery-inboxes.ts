import type { Queryable } from './postgres-sql.js';

/**
 * The distinct inboxes one delivery per follower of a user goes to (a shared inbox serves its whole server), in
 * follow order: the one answer every outbox of this store queues by — an activity's deliveries, a profile's Updates,
 * an account's Delete.
 */
export async function deliveryInboxes(db: Queryable, username: string): Promise<string[]> {
  const rows = await db.query<{ inbox: string }>(
    `SELECT COALESCE(shared_inbox, inbox) AS inbox FROM followers WHERE username = $1
     GROUP BY 1 ORDER BY MIN(seq)`,
    [username],
  );
  return rows.map((row) => row.inbox);
}
