import type { Database } from 'better-sqlite3';
import { hostKeyOfUrl } from '../../../domain/domain-rules.js';
import type { Migration } from './sqlite-migrate.js';

/**
 * Issue 37: the operator's domain rules (API.md §4.3). Its own file, and its number in one place: branches that add
 * migrations in parallel renumber it here.
 *
 * - `domain_rules`: one rule per (kind, host), with the host's key (domain-rules.ts hostKey) that `covering` reads by
 *   and the time it was made.
 * - `followers.host_key`: the key of the follower actor's host, so that a block removes a domain's followers with
 *   one index range and allowlist mode counts a user's visible followers through `(username, host_key)`. Filled here
 *   for the followers already stored, with the same JavaScript that fills it on every insert.
 */
export const DOMAIN_RULES_MIGRATION: Migration = {
  version: 13,
  sql: `
    CREATE TABLE domain_rules (
      kind TEXT NOT NULL CHECK (kind IN ('block', 'allow')),
      host TEXT NOT NULL,
      host_key TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (kind, host)
    ) WITHOUT ROWID;
    CREATE INDEX domain_rules_by_key ON domain_rules (host_key, kind);
    ALTER TABLE followers ADD COLUMN host_key TEXT;
    CREATE INDEX followers_by_host ON followers (host_key);
    CREATE INDEX followers_by_user_host ON followers (username, host_key);
  `,
  fill: fillFollowerHostKeys,
};

function fillFollowerHostKeys(db: Database): void {
  const update = db.prepare<[string | null, number]>('UPDATE followers SET host_key = ? WHERE seq = ?');
  const rows = db.prepare<[], { seq: number; actor: string }>('SELECT seq, actor FROM followers').iterate();
  const pending: { seq: number; key: string | null }[] = [];
  for (const row of rows) pending.push({ seq: row.seq, key: hostKeyOfUrl(row.actor) });
  for (const { seq, key } of pending) update.run(key, seq);
}
