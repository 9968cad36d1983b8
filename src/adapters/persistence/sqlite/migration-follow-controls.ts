import type { Migration } from './sqlite-migrate.js';

// Issue 37 (API.md §4.3): the follow requests of locked accounts and the actors each person blocks, each in a
// migration of its own.

export const FOLLOW_REQUESTS_MIGRATION: Migration = {
  version: 14,
  // Issue 37 (API.md §4.3): follow requests of locked accounts, one per (user, actor), listed newest first by
  // `seq`. `host_key` is the actor's host as domain-rules.ts keys it, so that a domain block deletes a domain's
  // requests as one index range.
  sql: `
    CREATE TABLE follow_requests (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      username TEXT NOT NULL,
      actor TEXT NOT NULL,
      inbox TEXT NOT NULL,
      shared_inbox TEXT,
      follow_id TEXT,
      host_key TEXT NOT NULL,
      requested_at INTEGER NOT NULL,
      UNIQUE (username, actor)
    );
    CREATE INDEX follow_requests_by_user ON follow_requests (username, seq);
    CREATE INDEX follow_requests_by_actor ON follow_requests (actor);
    CREATE INDEX follow_requests_by_host ON follow_requests (host_key);
  `,
};

export const ACTOR_BLOCKS_MIGRATION: Migration = {
  version: 15,
  // Issue 37 (API.md §4.3): the remote actors each person blocks, newest first by `seq`. The inbox is kept so that
  // the Reject of a later Follow and the Undo of the block need no fetch. One block per (user, actor).
  sql: `
    CREATE TABLE actor_blocks (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      username TEXT NOT NULL,
      actor TEXT NOT NULL,
      inbox TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (username, actor)
    );
    CREATE INDEX actor_blocks_by_user_seq ON actor_blocks (username, seq);
  `,
};
