import { ACCOUNT_SECURITY_MIGRATION } from './migration-account-security.js';
import { DOMAIN_RULES_MIGRATION } from './migration-domain-rules.js';
import { FOLLOW_REQUESTS_MIGRATION, ACTOR_BLOCKS_MIGRATION } from './migration-follow-controls.js';
import { buildTagIndex } from './sqlite-asset-tags.js';
import type { Migration } from './sqlite-migrate.js';
import { buildTransparencyLog, TRANSPARENCY_LOG_SCHEMA } from './sqlite-transparency-log.js';

/** The migration that adds the transparency log (its tests find it by this). */
export const TRANSPARENCY_LOG_MIGRATION_VERSION = 10;

/** Append only: an applied migration is never edited, its successor changes what it made. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE users (
        username TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,
        public_key_pem TEXT NOT NULL,
        private_key_pem TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE issued_tokens (
        token_hash TEXT PRIMARY KEY,
        jti TEXT NOT NULL,
        username TEXT NOT NULL,
        session_jti TEXT,
        l1_server TEXT,
        issued_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX issued_tokens_by_session ON issued_tokens (session_jti);
      CREATE INDEX issued_tokens_by_user ON issued_tokens (username, expires_at);
      CREATE INDEX issued_tokens_by_user_server ON issued_tokens (username, l1_server);
      CREATE INDEX issued_tokens_by_expiry ON issued_tokens (expires_at);

      CREATE TABLE revocations (
        token_hash TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER NOT NULL
      );
      CREATE INDEX revocations_by_expiry ON revocations (expires_at);

      CREATE TABLE renderer_attachments (
        username TEXT NOT NULL,
        l1_server TEXT NOT NULL,
        attached_at INTEGER NOT NULL,
        PRIMARY KEY (username, l1_server)
      );

      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'abandoned')),
        attempts INTEGER NOT NULL DEFAULT 0,
        queued_at INTEGER NOT NULL,
        run_at INTEGER NOT NULL,
        lease_id TEXT,
        lease_until INTEGER,
        last_error TEXT
      );
      CREATE INDEX jobs_by_state_run_at ON jobs (state, run_at);
    `,
  },
  {
    version: 2,
    sql: `
      -- Counts that lists show on every page, kept up to date in the transaction of each write so that reading one
      -- never scans a table.
      CREATE TABLE counters (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      );

      -- Users get a registration position (a stable rowid alias, which VACUUM keeps) for cursor-paged listing. The
      -- old table's rowid is registration order: users are never deleted and a new rowid is the highest plus one.
      CREATE TABLE users_v2 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        public_key_pem TEXT NOT NULL,
        private_key_pem TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      INSERT INTO users_v2 (seq, username, password_hash, public_key_pem, private_key_pem, created_at)
        SELECT rowid, username, password_hash, public_key_pem, private_key_pem, created_at FROM users ORDER BY rowid;
      DROP TABLE users;
      ALTER TABLE users_v2 RENAME TO users;
      INSERT INTO counters (name, value) SELECT 'users', COUNT(*) FROM users;

      -- A deleted asset keeps its row, so that its name stays taken and it can answer 410.
      CREATE TABLE assets (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        media_type TEXT NOT NULL,
        url TEXT,
        description TEXT NOT NULL,
        tags TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      -- Lists show live assets only. The trailing deleted_at (always NULL here) makes the counts by owner and by
      -- name prefix index-only.
      CREATE INDEX assets_live_by_seq ON assets (seq) WHERE deleted_at IS NULL;
      CREATE INDEX assets_live_by_owner ON assets (owner, seq, deleted_at) WHERE deleted_at IS NULL;
      CREATE INDEX assets_live_by_name ON assets (name, deleted_at) WHERE deleted_at IS NULL;
      INSERT INTO counters (name, value) VALUES ('live_assets', 0);

      CREATE TABLE activities (
        idx INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        actor TEXT NOT NULL,
        object TEXT NOT NULL,
        published INTEGER NOT NULL,
        document TEXT NOT NULL
      );
      CREATE INDEX activities_by_actor ON activities (actor, idx);

      CREATE TABLE followers (
        username TEXT NOT NULL,
        actor TEXT NOT NULL,
        inbox TEXT NOT NULL,
        shared_inbox TEXT,
        followed_at INTEGER NOT NULL,
        PRIMARY KEY (username, actor)
      );
    `,
  },
  {
    version: 3,
    // Per-user totals kept in the append transaction, so an outbox's totalItems and a `?owner=` total cost one
    // row read however many activities or assets the user has.
    sql: `
      CREATE TABLE user_counts (
        username TEXT PRIMARY KEY,
        activities INTEGER NOT NULL DEFAULT 0,
        live_assets INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO user_counts (username, activities)
        SELECT actor, COUNT(*) FROM activities GROUP BY actor;
      INSERT INTO user_counts (username, live_assets)
        SELECT owner, COUNT(*) FROM assets WHERE deleted_at IS NULL GROUP BY owner
        ON CONFLICT (username) DO UPDATE SET live_assets = excluded.live_assets;
    `,
  },
  {
    version: 4,
    // Federation: jobs get the destination they go to (lanes, so one dead host is backed off without holding up
    // the others); followers get a position for cursor-paged collections and the id of their Follow; the keys of
    // remote actors are kept once fetched; the service's own actor gets its key pair.
    sql: `
      ALTER TABLE jobs ADD COLUMN lane TEXT;
      CREATE INDEX jobs_pending_by_lane ON jobs (lane, run_at) WHERE state = 'pending';
      CREATE INDEX jobs_pending_without_lane ON jobs (run_at) WHERE state = 'pending' AND lane IS NULL;

      CREATE TABLE followers_v2 (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL,
        actor TEXT NOT NULL,
        inbox TEXT NOT NULL,
        shared_inbox TEXT,
        follow_id TEXT,
        followed_at INTEGER NOT NULL,
        UNIQUE (username, actor)
      );
      INSERT INTO followers_v2 (username, actor, inbox, shared_inbox, followed_at)
        SELECT username, actor, inbox, shared_inbox, followed_at FROM followers ORDER BY followed_at, rowid;
      DROP TABLE followers;
      ALTER TABLE followers_v2 RENAME TO followers;
      CREATE INDEX followers_by_user_seq ON followers (username, seq);
      CREATE INDEX followers_by_actor ON followers (actor);

      CREATE TABLE remote_keys (
        key_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        public_key_pem TEXT NOT NULL,
        fetched_at INTEGER NOT NULL
      );

      CREATE TABLE instance_actor (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        public_key_pem TEXT NOT NULL,
        private_key_pem TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    // Deleted accounts keep their row (the name stays taken, the key signs the last deliveries) and leave every
    // list and count: the 'users' counter counts live accounts from now on.
    sql: `
      ALTER TABLE users ADD COLUMN deleted_at INTEGER;
      CREATE INDEX users_live_by_seq ON users (seq) WHERE deleted_at IS NULL;
    `,
  },
  {
    version: 6,
    // A disabled account (`l2 users disable`) keeps its place in every list and count; null while enabled.
    sql: `ALTER TABLE users ADD COLUMN disabled_at INTEGER;`,
  },
  {
    version: 7,
    // Issue 23: bounded Accepts. A job may carry a key that at most one pending job holds (a repeated Follow replaces
    // the Accept waiting, see NewJob.replaceKey); pending jobs are counted by lane and kind through an index (a cap on
    // Accepts waiting per host); and a lane's back-off is one row that claims respect, instead of a rewrite of every
    // job of the lane.
    sql: `
      ALTER TABLE jobs ADD COLUMN replace_key TEXT;
      CREATE UNIQUE INDEX jobs_pending_by_replace_key ON jobs (replace_key)
        WHERE state = 'pending' AND replace_key IS NOT NULL;
      CREATE INDEX jobs_pending_by_lane_kind ON jobs (lane, kind) WHERE state = 'pending';

      CREATE TABLE lane_backoffs (
        lane TEXT PRIMARY KEY,
        until INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX lane_backoffs_by_until ON lane_backoffs (until);
    `,
  },
  {
    version: 8,
    // Issue 25: profiles, alt text, sensitive assets and hashtag pages. A user's profile is JSON text (the form of
    // stored-profile.ts), NULL for the empty profile of the users already there; profile_version moves by one with
    // every change (the compare-and-set of UserRepository.updateProfile). Existing assets have no alt text and are
    // not sensitive. The tag index — each live asset's tag keys, and how many live assets carry each — is filled from
    // the live assets already there, in JavaScript (the keys are lower-cased there, see tag-key.ts).
    sql: `
      ALTER TABLE users ADD COLUMN profile TEXT;
      ALTER TABLE users ADD COLUMN profile_version INTEGER NOT NULL DEFAULT 0;

      ALTER TABLE assets ADD COLUMN alt_text TEXT;
      ALTER TABLE assets ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0;

      CREATE TABLE asset_tags (
        tag TEXT NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (tag, seq)
      ) WITHOUT ROWID;
      CREATE TABLE tag_counts (
        tag TEXT PRIMARY KEY,
        live_assets INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
    fill: buildTagIndex,
  },
  {
    version: 9,
    // Issue 26: "Sign in with L2". A code is kept by its SHA-256 hash, never the code; `record` is the JSON of
    // authorization-code-record.ts, with the columns a statement filters on beside it. `used_at` is set by the one
    // exchange that redeems the code (a compare-and-set); expired codes are removed by the hourly clean-up.
    sql: `
      CREATE TABLE authorization_codes (
        code_hash TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX authorization_codes_by_expiry ON authorization_codes (expires_at);
    `,
  },
  {
    // Issue 27: the activity log as a transparency log (docs/adr/0013). Every append keeps its leaf hash, the hash
    // of each tile it completes and the tree's right edge; here they are built from the history already stored, so
    // the first checkpoint covers it. Its number is only its place: renumber it freely before it ships.
    version: TRANSPARENCY_LOG_MIGRATION_VERSION,
    sql: TRANSPARENCY_LOG_SCHEMA,
    fill: buildTransparencyLog,
  },
  ACCOUNT_SECURITY_MIGRATION,
  {
    version: 12,
    // Issue 36: a token issued to a client metadata document client remembers where its revocation is told
    // (stored-records.ts clientLogoutColumn); NULL for every token before, which keeps §2's JSON notice.
    sql: `ALTER TABLE issued_tokens ADD COLUMN client_logout TEXT;`,
  },
  DOMAIN_RULES_MIGRATION,
  FOLLOW_REQUESTS_MIGRATION,
  ACTOR_BLOCKS_MIGRATION,
];
