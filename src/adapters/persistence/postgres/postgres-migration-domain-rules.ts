import { hostKeyOfUrl } from '../../../domain/domain-rules.js';
import type { PostgresMigration } from './postgres-migrations.js';
import type { Queryable } from './postgres-sql.js';

/**
 * Issue 37: the operator's domain rules (API.md §4.3), one per (kind, host), found by the host's key
 * (domain-rules.ts hostKey); followers get the key of their actor's host, so that a block removes a domain's
 * followers with one index range. The keys are compared in code point order (COLLATE "C"): a rule covers the range
 * of keys that start with its own. Its own file, and its number in one place: branches that add migrations in
 * parallel renumber it here.
 */
/** A key compared byte for byte (code point order), as postgres-migrations.ts declares its keys. */
const KEY = 'TEXT COLLATE "C"';

export const DOMAIN_RULES_MIGRATION: PostgresMigration = {
  version: 8,
  name: 'domain rules',
  // Filled for the followers already stored with the same JavaScript that fills it on every insert.
  sql: `
      CREATE TABLE domain_rules (
        kind ${KEY} NOT NULL CHECK (kind IN ('block', 'allow')),
        host ${KEY} NOT NULL,
        host_key ${KEY} NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (kind, host)
      );
      CREATE INDEX domain_rules_by_key ON domain_rules (host_key, kind);
      ALTER TABLE followers ADD COLUMN host_key ${KEY};
      CREATE INDEX followers_by_host ON followers (host_key);
      CREATE INDEX followers_by_user_host ON followers (username, host_key);
    `,
  fill: fillFollowerHostKeys,
};

async function fillFollowerHostKeys(tx: Queryable): Promise<void> {
  const rows = await tx.query<{ seq: string; actor: string }>('SELECT seq, actor FROM followers');
  if (rows.length === 0) return;
  await tx.query(
    `UPDATE followers SET host_key = filled.key
       FROM unnest($1::bigint[], $2::text[]) AS filled(seq, key) WHERE followers.seq = filled.seq`,
    [rows.map((row) => row.seq), rows.map((row) => hostKeyOfUrl(row.actor))],
  );
}
