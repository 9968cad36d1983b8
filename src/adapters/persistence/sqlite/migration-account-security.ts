import type { Migration } from './sqlite-migrate.js';

/**
 * Issue 28: what protects an account besides its password. Its own file, and its number in one place: branches that
 * add migrations in parallel renumber it here.
 *
 * - `totp_factors`: the confirmed second factor per account, with the last time-step a code was accepted for (a code
 *   works once); `totp_enrolments`: a secret shown and waiting for its first code.
 * - `recovery_codes`: SHA-256 hex of each code, used or not.
 * - `passkeys`: WebAuthn credentials by id (unique across the service), with the account's user handle, the COSE
 *   public key (base64url), the counter last seen, the transports (JSON) and whether the key may be backed up.
 * - `auth_challenges`: single-use, short-lived values (WebAuthn challenges, a login's second step, reset links) by
 *   the SHA-256 hex of the value, removed when used and by the hourly clean-up when expired.
 * - `account_events`: the history the Account page shows, in order.
 */
export const ACCOUNT_SECURITY_MIGRATION: Migration = {
  version: 11,
  sql: `
    CREATE TABLE totp_factors (
      username TEXT PRIMARY KEY,
      secret TEXT NOT NULL,
      enabled_at INTEGER NOT NULL,
      last_used_step INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;

    CREATE TABLE totp_enrolments (
      username TEXT PRIMARY KEY,
      secret TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE recovery_codes (
      username TEXT NOT NULL,
      code_hash TEXT NOT NULL,
      used_at INTEGER,
      PRIMARY KEY (username, code_hash)
    ) WITHOUT ROWID;

    CREATE TABLE passkeys (
      credential_id TEXT PRIMARY KEY,
      username TEXT NOT NULL,
      user_handle TEXT NOT NULL,
      name TEXT NOT NULL,
      public_key TEXT NOT NULL,
      counter INTEGER NOT NULL,
      transports TEXT NOT NULL,
      backup_eligible INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER
    );
    CREATE INDEX passkeys_by_user ON passkeys (username);

    CREATE TABLE auth_challenges (
      id_hash TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      username TEXT,
      data TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX auth_challenges_by_expiry ON auth_challenges (expires_at);
    CREATE INDEX auth_challenges_by_user ON auth_challenges (username, kind);

    CREATE TABLE account_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      username TEXT NOT NULL,
      kind TEXT NOT NULL,
      detail TEXT,
      at INTEGER NOT NULL,
      address TEXT
    );
    CREATE INDEX account_events_by_user ON account_events (username, seq);
  `,
};
