import type { PostgresMigration } from './postgres-migrations.js';

// Issue 37 (API.md §4.3): the follow requests of locked accounts and the actors each person blocks. Keys are
// compared in code point order (a rule's range over host_key), hence the C collation, as in postgres-migrations.ts.
const KEY = 'TEXT COLLATE "C"';
const POSITION = 'BIGINT GENERATED ALWAYS AS IDENTITY';

export const FOLLOW_REQUESTS_MIGRATION: PostgresMigration = {
  version: 9,
  name: 'follow requests',
  // Issue 37 (API.md §4.3): follow requests of locked accounts, as SQLite's migration 14. `host_key` is the
  // actor's host as domain-rules.ts keys it; a rule's range over it needs code point order, hence the C collation.
  sql: `
    CREATE TABLE follow_requests (
      seq ${POSITION} PRIMARY KEY,
      id ${KEY} NOT NULL UNIQUE,
      username ${KEY} NOT NULL,
      actor ${KEY} NOT NULL,
      inbox TEXT NOT NULL,
      shared_inbox TEXT,
      follow_id ${KEY},
      host_key ${KEY} NOT NULL,
      requested_at TIMESTAMPTZ NOT NULL,
      UNIQUE (username, actor)
    );
    CREATE INDEX follow_requests_by_user_seq ON follow_requests (username, seq);
    CREATE INDEX follow_requests_by_actor ON follow_requests (actor);
    CREATE INDEX follow_requests_by_host ON follow_requests (host_key);
  `,
};

export const ACTOR_BLOCKS_MIGRATION: PostgresMigration = {
  version: 10,
  name: 'actor blocks',
  // Issue 37 (API.md §4.3): the remote actors each person blocks, newest first by `seq`, one per (user, actor).
  // The inbox is kept so that the Reject of a later Follow and the Undo of the block need no fetch.
  sql: `
    CREATE TABLE actor_blocks (
      seq ${POSITION} PRIMARY KEY,
      id ${KEY} NOT NULL UNIQUE,
      username ${KEY} NOT NULL,
      actor ${KEY} NOT NULL,
      inbox TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      UNIQUE (username, actor)
    );
    CREATE INDEX actor_blocks_by_user_seq ON actor_blocks (username, seq);
  `,
};
