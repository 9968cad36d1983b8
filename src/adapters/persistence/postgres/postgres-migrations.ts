// The PostgreSQL schema, one migration per part of the store. Append only: an applied migration is never edited,
// its successor changes what it made. The tables mirror the SQLite store's (their codecs are in codecs/), with
// PostgreSQL's types: times are timestamptz, flags boolean, positions identity columns. Keys that lists order or
// range over are COLLATE "C" — code point order, as SQLite's BINARY and MongoDB compare, so that a name prefix is
// an index range (prefix-successor.ts) and an export lists records in the same order from every store.

/** A step of the schema, applied in its own transaction under the migrations' advisory lock. */
export interface PostgresMigration {
  readonly version: number;
  /** What it makes, for `l2 store migrate` and the migrations table. */
  readonly name: string;
  readonly sql: string;
  /** Runs after `sql`, in its transaction: what SQL alone cannot fill in (keys only JavaScript computes). */
  readonly fill?: (tx: Queryable) => Promise<void>;
}

import { DOMAIN_RULES_MIGRATION } from './postgres-migration-domain-rules.js';
import { FOLLOW_REQUESTS_MIGRATION, ACTOR_BLOCKS_MIGRATION } from './postgres-migration-follow-controls.js';
import type { Queryable } from './postgres-sql.js';

/** A key compared byte for byte (code point order). */
const KEY = 'TEXT COLLATE "C"';
const POSITION = 'BIGINT GENERATED ALWAYS AS IDENTITY';

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'accounts and tokens',
    sql: `
      CREATE TABLE users (
        seq ${POSITION} PRIMARY KEY,
        username ${KEY} NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        public_key_pem TEXT NOT NULL,
        private_key_pem TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        deleted_at TIMESTAMPTZ,
        disabled_at TIMESTAMPTZ,
        profile TEXT,
        profile_version INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX users_live_by_seq ON users (seq) WHERE deleted_at IS NULL;

      -- Counts that lists show on every page, kept in the transaction of each write: reading one scans nothing.
      CREATE TABLE counters (name ${KEY} PRIMARY KEY, value BIGINT NOT NULL);
      INSERT INTO counters (name, value) VALUES ('users', 0), ('live_assets', 0);

      CREATE TABLE issued_tokens (
        seq ${POSITION},
        token_hash ${KEY} PRIMARY KEY,
        jti TEXT NOT NULL,
        username ${KEY} NOT NULL,
        session_jti ${KEY},
        l1_server ${KEY},
        issued_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX issued_tokens_by_session ON issued_tokens (session_jti);
      CREATE INDEX issued_tokens_by_user ON issued_tokens (username, expires_at);
      CREATE INDEX issued_tokens_by_user_server ON issued_tokens (username, l1_server);
      CREATE INDEX issued_tokens_by_expiry ON issued_tokens (expires_at);

      CREATE TABLE revocations (
        seq ${POSITION},
        token_hash ${KEY} PRIMARY KEY,
        username ${KEY} NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX revocations_by_expiry ON revocations (expires_at);

      CREATE TABLE renderer_attachments (
        seq ${POSITION},
        username ${KEY} NOT NULL,
        l1_server ${KEY} NOT NULL,
        attached_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (username, l1_server)
      );

      -- "Sign in with L2": a code by its SHA-256 hash; record is the JSON of authorization-code-record.ts.
      CREATE TABLE authorization_codes (
        code_hash ${KEY} PRIMARY KEY,
        record TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        used_at TIMESTAMPTZ
      );
      CREATE INDEX authorization_codes_by_expiry ON authorization_codes (expires_at);
    `,
  },
  {
    version: 2,
    name: 'the outbound queue',
    // A claim seeks each pending lane's first due job (jobs_pending_by_lane) and the due jobs without a lane; a
    // job's replace_key is held by at most one pending job; a lane's back-off is one row that claims respect.
    sql: `
      CREATE TABLE jobs (
        id ${POSITION} PRIMARY KEY,
        kind ${KEY} NOT NULL,
        payload TEXT NOT NULL,
        lane ${KEY},
        state ${KEY} NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'abandoned')),
        attempts INTEGER NOT NULL DEFAULT 0,
        queued_at TIMESTAMPTZ NOT NULL,
        run_at TIMESTAMPTZ NOT NULL,
        lease_id TEXT,
        lease_until TIMESTAMPTZ,
        last_error TEXT,
        replace_key ${KEY}
      );
      CREATE INDEX jobs_pending_by_lane ON jobs (lane, run_at, id) WHERE state = 'pending';
      CREATE INDEX jobs_pending_without_lane ON jobs (run_at, id) WHERE state = 'pending' AND lane IS NULL;
      CREATE UNIQUE INDEX jobs_pending_by_replace_key ON jobs (replace_key)
        WHERE state = 'pending' AND replace_key IS NOT NULL;
      CREATE INDEX jobs_pending_by_lane_kind ON jobs (lane, kind) WHERE state = 'pending';
      CREATE INDEX jobs_by_state_kind ON jobs (state, kind);

      CREATE TABLE lane_backoffs (lane ${KEY} PRIMARY KEY, until TIMESTAMPTZ NOT NULL);
      CREATE INDEX lane_backoffs_by_until ON lane_backoffs (until);
    `,
  },
  {
    version: 3,
    name: 'the registry, the activity log and its transparency log',
    // A deleted asset keeps its row (its name stays taken; it answers 410). The tag index and the per-user totals are
    // kept by the append. tlog_hashes keeps every leaf hash (level 0) and the root of every completed tile above;
    // tlog_state's one row holds the tree's size and right edge — the append locks it first, so appends take turns
    // and idx has no gap (docs/adr/0013, 0018); tlog_signed's the origin and the latest checkpoint, apart, so that
    // keeping a checkpoint never waits for an append.
    sql: `
      CREATE TABLE assets (
        seq ${POSITION} PRIMARY KEY,
        name ${KEY} NOT NULL UNIQUE,
        owner ${KEY} NOT NULL,
        content_hash TEXT NOT NULL,
        media_type TEXT NOT NULL,
        url TEXT,
        description TEXT NOT NULL,
        alt_text TEXT,
        sensitive BOOLEAN NOT NULL DEFAULT false,
        tags TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL,
        deleted_at TIMESTAMPTZ
      );
      CREATE INDEX assets_live_by_seq ON assets (seq) WHERE deleted_at IS NULL;
      CREATE INDEX assets_live_by_owner ON assets (owner, seq) WHERE deleted_at IS NULL;
      CREATE INDEX assets_live_by_name ON assets (name) WHERE deleted_at IS NULL;

      CREATE TABLE activities (
        idx BIGINT PRIMARY KEY,
        type TEXT NOT NULL,
        actor ${KEY} NOT NULL,
        object TEXT NOT NULL,
        published TIMESTAMPTZ NOT NULL,
        document TEXT NOT NULL
      );
      CREATE INDEX activities_by_actor ON activities (actor, idx);

      CREATE TABLE user_counts (
        username ${KEY} PRIMARY KEY,
        activities BIGINT NOT NULL DEFAULT 0,
        live_assets BIGINT NOT NULL DEFAULT 0
      );
      CREATE TABLE asset_tags (tag ${KEY} NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (tag, seq));
      CREATE TABLE tag_counts (tag ${KEY} PRIMARY KEY, live_assets BIGINT NOT NULL);

      CREATE TABLE tlog_hashes (
        level INTEGER NOT NULL,
        idx BIGINT NOT NULL,
        hash BYTEA NOT NULL,
        PRIMARY KEY (level, idx)
      );
      CREATE TABLE tlog_state (id INTEGER PRIMARY KEY CHECK (id = 1), size BIGINT NOT NULL, edge BYTEA NOT NULL);
      INSERT INTO tlog_state (id, size, edge) VALUES (1, 0, '\\x');
      CREATE TABLE tlog_signed (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        origin TEXT,
        checkpoint_size BIGINT,
        checkpoint TEXT
      );
      INSERT INTO tlog_signed (id) VALUES (1);
    `,
  },
  {
    version: 4,
    name: 'federation',
    sql: `
      CREATE TABLE followers (
        seq ${POSITION} PRIMARY KEY,
        username ${KEY} NOT NULL,
        actor ${KEY} NOT NULL,
        inbox TEXT NOT NULL,
        shared_inbox TEXT,
        follow_id ${KEY},
        followed_at TIMESTAMPTZ NOT NULL,
        UNIQUE (username, actor)
      );
      CREATE INDEX followers_by_user_seq ON followers (username, seq);
      CREATE INDEX followers_by_actor ON followers (actor);

      CREATE TABLE remote_keys (
        seq ${POSITION},
        key_id ${KEY} PRIMARY KEY,
        owner TEXT NOT NULL,
        public_key_pem TEXT NOT NULL,
        fetched_at TIMESTAMPTZ NOT NULL
      );

      CREATE TABLE instance_actor (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        public_key_pem TEXT NOT NULL,
        private_key_pem TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: 'second factors, passkeys, challenges and account history',
    sql: `
      CREATE TABLE totp_factors (
        username ${KEY} PRIMARY KEY,
        secret TEXT NOT NULL,
        enabled_at TIMESTAMPTZ NOT NULL,
        last_used_step BIGINT NOT NULL DEFAULT 0
      );
      CREATE TABLE totp_enrolments (
        username ${KEY} PRIMARY KEY,
        secret TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE recovery_codes (
        username ${KEY} NOT NULL,
        code_hash ${KEY} NOT NULL,
        used_at TIMESTAMPTZ,
        PRIMARY KEY (username, code_hash)
      );
      CREATE TABLE passkeys (
        seq ${POSITION},
        credential_id ${KEY} PRIMARY KEY,
        username ${KEY} NOT NULL,
        user_handle TEXT NOT NULL,
        name TEXT NOT NULL,
        public_key TEXT NOT NULL,
        counter BIGINT NOT NULL,
        transports TEXT NOT NULL,
        backup_eligible BOOLEAN NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        last_used_at TIMESTAMPTZ
      );
      CREATE INDEX passkeys_by_user ON passkeys (username, created_at, seq);

      CREATE TABLE auth_challenges (
        id_hash ${KEY} PRIMARY KEY,
        kind ${KEY} NOT NULL,
        username ${KEY},
        data TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX auth_challenges_by_expiry ON auth_challenges (expires_at);
      CREATE INDEX auth_challenges_by_user ON auth_challenges (username, kind);

      CREATE TABLE account_events (
        seq ${POSITION} PRIMARY KEY,
        username ${KEY} NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT,
        at TIMESTAMPTZ NOT NULL,
        address TEXT
      );
      CREATE INDEX account_events_by_user ON account_events (username, seq);
    `,
  },
  {
    version: 6,
    name: 'rate-limit counters',
    // Every rate limit's counters, shared by every instance (postgres-rate-limit-counters.ts): points used in the
    // window that ends at `expire`; the hourly clean-up deletes the rows whose window is over.
    sql: `
      CREATE TABLE rate_limit_counters (
        key ${KEY} PRIMARY KEY,
        points INTEGER NOT NULL,
        expire TIMESTAMPTZ
      );
      CREATE INDEX rate_limit_counters_by_expiry ON rate_limit_counters (expire);
    `,
  },
  {
    version: 7,
    name: 'document clients of issued tokens',
    // Issue 36: a token issued to a client metadata document client remembers where its revocation is told
    // (stored-records.ts clientLogoutColumn); NULL for every token before, which keeps §2's JSON notice.
    sql: `ALTER TABLE issued_tokens ADD COLUMN client_logout TEXT;`,
  },
  DOMAIN_RULES_MIGRATION,
  FOLLOW_REQUESTS_MIGRATION,
  ACTOR_BLOCKS_MIGRATION,
];
