import type { Database } from 'better-sqlite3';

/**
 * The distinct inboxes one delivery per follower of a user goes to (a shared inbox serves its whole server), in
 * follow order: the one answer every outbox of this store queues by — an activity's deliveries, a profile's Updates,
 * an account's Delete.
 */
export function prepareDeliveryInboxes(db: Database): (username: string) => string[] {
  const select = db.prepare<[string], { inbox: string }>(`
    SELECT COALESCE(shared_inbox, inbox) AS inbox FROM followers WHERE username = ?
    GROUP BY 1 ORDER BY MIN(seq)`);
  return (username) => select.all(username).map((row) => row.inbox);
}
