import type { Database } from 'better-sqlite3';
import {
  emptyTransferCounts,
  StoreNotEmptyError,
  type StoreTransfer,
  type TransferCounts,
  type TransferRecord,
} from '../../../application/ports/store-transfer.js';
import { profileFromJson, profileJson, profileFromStored, storedProfile } from '../stored-profile.js';
import { checkedBatches, iso, isoOrNull, millis, millisOrNull } from '../transfer-checks.js';
import { rangeHashReader } from '@l2/tlog';
import { checkImportedLog, type TransparencyLogRecord } from '../transparency-import.js';
import { buildTagIndex } from './sqlite-asset-tags.js';
import { storeCall } from './sqlite-errors.js';
import { buildTransparencyLog, SqliteTransparencyLog } from './sqlite-transparency-log.js';

/** Records written per transaction: large enough to be fast, small enough to keep the write lock short. */
const BATCH = 2_000;

type Row = Record<string, unknown>;
const text = (row: Row, column: string) => row[column] as string;
const textOrNull = (row: Row, column: string) => row[column] as string | null;
/** A job's key in a record: absent when it has none, as in files exported before keys existed. */
const optionalKey = (key: string | null) => (key === null ? {} : { replaceKey: key });
const number = (row: Row, column: string) => row[column] as number;

/** Each table as records, in the order the rows were written. */
const EXPORTS: readonly { sql: string; toRecord: (row: Row) => TransferRecord }[] = [
  {
    sql: 'SELECT * FROM users ORDER BY seq',
    toRecord: (r) => ({
      record: 'user',
      username: text(r, 'username'),
      passwordHash: text(r, 'password_hash'),
      publicKeyPem: text(r, 'public_key_pem'),
      privateKeyPem: text(r, 'private_key_pem'),
      createdAt: iso(number(r, 'created_at')),
      deletedAt: isoOrNull(r.deleted_at as number | null),
      disabledAt: isoOrNull(r.disabled_at as number | null),
      profile: storedProfile(profileFromJson(textOrNull(r, 'profile'))),
      profileVersion: number(r, 'profile_version'),
    }),
  },
  {
    sql: 'SELECT * FROM totp_factors ORDER BY username',
    toRecord: (r) => ({
      record: 'totp_factor',
      username: text(r, 'username'),
      secret: text(r, 'secret'),
      enabledAt: iso(number(r, 'enabled_at')),
      lastUsedStep: number(r, 'last_used_step'),
    }),
  },
  {
    sql: 'SELECT * FROM recovery_codes ORDER BY username, code_hash',
    toRecord: (r) => ({
      record: 'recovery_code',
      username: text(r, 'username'),
      codeHash: text(r, 'code_hash'),
      usedAt: isoOrNull(r.used_at as number | null),
    }),
  },
  {
    sql: 'SELECT * FROM passkeys ORDER BY rowid',
    toRecord: (r) => ({
      record: 'passkey',
      credentialId: text(r, 'credential_id'),
      username: text(r, 'username'),
      userHandle: text(r, 'user_handle'),
      name: text(r, 'name'),
      publicKey: text(r, 'public_key'),
      counter: number(r, 'counter'),
      transports: JSON.parse(text(r, 'transports')) as string[],
      backupEligible: number(r, 'backup_eligible') === 1,
      createdAt: iso(number(r, 'created_at')),
      lastUsedAt: isoOrNull(r.last_used_at as number | null),
    }),
  },
  {
    sql: 'SELECT * FROM account_events ORDER BY seq',
    toRecord: (r) => ({
      record: 'account_event',
      username: text(r, 'username'),
      kind: text(r, 'kind'),
      detail: textOrNull(r, 'detail'),
      at: iso(number(r, 'at')),
      address: textOrNull(r, 'address'),
    }),
  },
  {
    sql: 'SELECT * FROM instance_actor',
    toRecord: (r) => ({
      record: 'instance_key',
      publicKeyPem: text(r, 'public_key_pem'),
      privateKeyPem: text(r, 'private_key_pem'),
    }),
  },
  {
    sql: 'SELECT * FROM remote_keys ORDER BY rowid',
    toRecord: (r) => ({
      record: 'remote_key',
      keyId: text(r, 'key_id'),
      owner: text(r, 'owner'),
      publicKeyPem: text(r, 'public_key_pem'),
      fetchedAt: iso(number(r, 'fetched_at')),
    }),
  },
  {
    sql: 'SELECT * FROM issued_tokens ORDER BY rowid',
    toRecord: (r) => ({
      record: 'issued_token',
      tokenHash: text(r, 'token_hash'),
      jti: text(r, 'jti'),
      username: text(r, 'username'),
      sessionJti: textOrNull(r, 'session_jti'),
      l1Server: textOrNull(r, 'l1_server'),
      issuedAt: iso(number(r, 'issued_at')),
      expiresAt: iso(number(r, 'expires_at')),
    }),
  },
  {
    sql: 'SELECT * FROM revocations ORDER BY rowid',
    toRecord: (r) => ({
      record: 'revocation',
      tokenHash: text(r, 'token_hash'),
      username: text(r, 'username'),
      expiresAt: iso(number(r, 'expires_at')),
      revokedAt: iso(number(r, 'revoked_at')),
    }),
  },
  {
    sql: 'SELECT * FROM renderer_attachments ORDER BY rowid',
    toRecord: (r) => ({
      record: 'attachment',
      username: text(r, 'username'),
      l1Server: text(r, 'l1_server'),
      attachedAt: iso(number(r, 'attached_at')),
    }),
  },
  {
    sql: 'SELECT * FROM assets ORDER BY seq',
    toRecord: (r) => ({
      record: 'asset',
      name: text(r, 'name'),
      owner: text(r, 'owner'),
      contentHash: text(r, 'content_hash'),
      mediaType: text(r, 'media_type'),
      url: textOrNull(r, 'url'),
      description: text(r, 'description'),
      altText: textOrNull(r, 'alt_text'),
      sensitive: number(r, 'sensitive') === 1,
      tags: JSON.parse(text(r, 'tags')) as string[],
      createdAt: iso(number(r, 'created_at')),
      updatedAt: iso(number(r, 'updated_at')),
      deletedAt: isoOrNull(r.deleted_at as number | null),
    }),
  },
  {
    sql: 'SELECT * FROM activities ORDER BY idx',
    toRecord: (r) => ({
      record: 'activity',
      idx: number(r, 'idx'),
      type: text(r, 'type'),
      actor: text(r, 'actor'),
      object: text(r, 'object'),
      published: iso(number(r, 'published')),
      entry: text(r, 'document'),
    }),
  },
  {
    sql: 'SELECT origin, checkpoint_size, checkpoint FROM tlog_state',
    toRecord: (r) => ({
      record: 'transparency_log',
      origin: textOrNull(r, 'origin'),
      checkpoint:
        r.checkpoint === null ? null : { size: number(r, 'checkpoint_size'), note: text(r, 'checkpoint') },
    }),
  },
  {
    sql: 'SELECT * FROM followers ORDER BY seq',
    toRecord: (r) => ({
      record: 'follower',
      username: text(r, 'username'),
      actor: text(r, 'actor'),
      inbox: text(r, 'inbox'),
      sharedInbox: textOrNull(r, 'shared_inbox'),
      followId: textOrNull(r, 'follow_id'),
      followedAt: iso(number(r, 'followed_at')),
    }),
  },
  {
    sql: 'SELECT * FROM jobs ORDER BY id',
    toRecord: (r) => ({
      record: 'job',
      kind: text(r, 'kind'),
      payload: JSON.parse(text(r, 'payload')) as unknown,
      lane: textOrNull(r, 'lane'),
      state: text(r, 'state') as 'pending' | 'abandoned',
      attempts: number(r, 'attempts'),
      queuedAt: iso(number(r, 'queued_at')),
      runAt: iso(number(r, 'run_at')),
      lastError: textOrNull(r, 'last_error'),
      ...optionalKey(textOrNull(r, 'replace_key')),
    }),
  },
];

/** What an import writes, per kind: an INSERT and the values of a record (the transparency log's, after the rest). */
function prepareInserts(db: Database): {
  [K in Exclude<TransferRecord['record'], 'transparency_log'>]: (
    r: Extract<TransferRecord, { record: K }>,
  ) => void;
} {
  const run = (sql: string) => {
    const statement = db.prepare(sql);
    return (...values: unknown[]) => statement.run(...values);
  };
  const user = run(
    'INSERT INTO users (username, password_hash, public_key_pem, private_key_pem, created_at, deleted_at, disabled_at, profile, profile_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const totpFactor = run(
    'INSERT INTO totp_factors (username, secret, enabled_at, last_used_step) VALUES (?, ?, ?, ?)',
  );
  const recoveryCode = run('INSERT INTO recovery_codes (username, code_hash, used_at) VALUES (?, ?, ?)');
  const passkey = run(
    'INSERT INTO passkeys (credential_id, username, user_handle, name, public_key, counter, transports, backup_eligible, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const accountEvent = run(
    'INSERT INTO account_events (username, kind, detail, at, address) VALUES (?, ?, ?, ?, ?)',
  );
  const instanceKey = run(
    'INSERT INTO instance_actor (id, public_key_pem, private_key_pem, created_at) VALUES (1, ?, ?, ?)',
  );
  const remoteKey = run(
    'INSERT INTO remote_keys (key_id, owner, public_key_pem, fetched_at) VALUES (?, ?, ?, ?)',
  );
  const issuedToken = run(
    'INSERT INTO issued_tokens (token_hash, jti, username, session_jti, l1_server, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const revocation = run(
    'INSERT INTO revocations (token_hash, username, expires_at, revoked_at) VALUES (?, ?, ?, ?)',
  );
  const attachment = run(
    'INSERT INTO renderer_attachments (username, l1_server, attached_at) VALUES (?, ?, ?)',
  );
  const asset = run(
    'INSERT INTO assets (name, owner, content_hash, media_type, url, description, alt_text, sensitive, tags, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const activity = run(
    'INSERT INTO activities (idx, type, actor, object, published, document) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const follower = run(
    'INSERT INTO followers (username, actor, inbox, shared_inbox, follow_id, followed_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const job = run(
    'INSERT INTO jobs (kind, payload, lane, state, attempts, queued_at, run_at, last_error, replace_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  return {
    user: (r) =>
      user(
        r.username,
        r.passwordHash,
        r.publicKeyPem,
        r.privateKeyPem,
        millis(r.createdAt),
        millisOrNull(r.deletedAt),
        millisOrNull(r.disabledAt),
        // Records of files exported before profiles existed have none: the empty profile, at version 0.
        profileJson(profileFromStored(r.profile)),
        r.profileVersion ?? 0,
      ),
    totp_factor: (r) => totpFactor(r.username, r.secret, millis(r.enabledAt), r.lastUsedStep),
    recovery_code: (r) => recoveryCode(r.username, r.codeHash, millisOrNull(r.usedAt)),
    passkey: (r) =>
      passkey(
        r.credentialId,
        r.username,
        r.userHandle,
        r.name,
        r.publicKey,
        r.counter,
        JSON.stringify(r.transports),
        r.backupEligible ? 1 : 0,
        millis(r.createdAt),
        millisOrNull(r.lastUsedAt),
      ),
    account_event: (r) => accountEvent(r.username, r.kind, r.detail, millis(r.at), r.address),
    instance_key: (r) => instanceKey(r.publicKeyPem, r.privateKeyPem, Date.now()),
    remote_key: (r) => remoteKey(r.keyId, r.owner, r.publicKeyPem, millis(r.fetchedAt)),
    issued_token: (r) =>
      issuedToken(
        r.tokenHash,
        r.jti,
        r.username,
        r.sessionJti,
        r.l1Server,
        millis(r.issuedAt),
        millis(r.expiresAt),
      ),
    revocation: (r) => revocation(r.tokenHash, r.username, millis(r.expiresAt), millis(r.revokedAt)),
    attachment: (r) => attachment(r.username, r.l1Server, millis(r.attachedAt)),
    asset: (r) =>
      asset(
        r.name,
        r.owner,
        r.contentHash,
        r.mediaType,
        r.url,
        r.description,
        r.altText ?? null,
        r.sensitive === true ? 1 : 0,
        JSON.stringify(r.tags),
        millis(r.createdAt),
        millis(r.updatedAt),
        millisOrNull(r.deletedAt),
      ),
    activity: (r) => activity(r.idx, r.type, r.actor, r.object, millis(r.published), r.entry),
    follower: (r) => follower(r.username, r.actor, r.inbox, r.sharedInbox, r.followId, millis(r.followedAt)),
    job: (r) =>
      job(
        r.kind,
        JSON.stringify(r.payload ?? null),
        r.lane,
        r.state,
        r.attempts,
        millis(r.queuedAt),
        millis(r.runAt),
        r.lastError,
        r.replaceKey ?? null,
      ),
  };
}

/** The counts the adapters keep in step with every write, rebuilt from what was imported (the tag index after). */
const REBUILD_COUNTS = `
  UPDATE counters SET value = (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL) WHERE name = 'users';
  UPDATE counters SET value = (SELECT COUNT(*) FROM assets WHERE deleted_at IS NULL) WHERE name = 'live_assets';
  DELETE FROM user_counts;
  INSERT INTO user_counts (username, activities) SELECT actor, COUNT(*) FROM activities GROUP BY actor;
  INSERT INTO user_counts (username, live_assets)
    SELECT owner, COUNT(*) FROM assets WHERE deleted_at IS NULL GROUP BY owner
    ON CONFLICT (username) DO UPDATE SET live_assets = excluded.live_assets;
`;

export class SqliteStoreTransfer implements StoreTransfer {
  constructor(private readonly db: Database) {}

  async *export(): AsyncGenerator<TransferRecord> {
    // One read transaction for the whole export: a consistent snapshot even while the service writes (WAL).
    storeCall(() => this.db.exec('BEGIN'));
    try {
      for (const { sql, toRecord } of EXPORTS) {
        for (const row of storeCall(() => this.db.prepare(sql).iterate()) as Iterable<Row>)
          yield toRecord(row);
      }
    } finally {
      if (this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  /**
   * All or nothing: one write transaction from the emptiness check to the rebuilt counts (SQLite takes a large
   * transaction in its stride; other processes on the file wait for the import). A file that turns out to be bad
   * halfway leaves the store as empty as it was.
   */
  async import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts> {
    const { db } = this;
    storeCall(() => db.exec('BEGIN IMMEDIATE'));
    try {
      this.refuseUnlessEmpty();
      const inserts = prepareInserts(db);
      const counts = emptyTransferCounts();
      let log: TransparencyLogRecord | null = null;
      for await (const batch of checkedBatches(records, BATCH, counts))
        storeCall(() => {
          for (const record of batch) {
            if (record.record === 'transparency_log') log = record;
            else (inserts[record.record] as (r: TransferRecord) => void)(record);
          }
        });
      storeCall(() => {
        db.exec(REBUILD_COUNTS);
        buildTagIndex(db);
        buildTransparencyLog(db);
      });
      if (log !== null) await this.importLog(log, counts.activity);
      storeCall(() => db.exec('COMMIT'));
      return counts;
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  }

  /** The origin and checkpoint of the imported log, once its hashes are rebuilt and give the checkpoint's root. */
  private async importLog(record: TransparencyLogRecord, size: number): Promise<void> {
    const log = new SqliteTransparencyLog(this.db);
    const { origin } = await log.state();
    await checkImportedLog(
      record,
      size,
      rangeHashReader((level, first, count) => log.hashes(level, first, count)),
      origin,
    );
    if (record.origin !== null) await log.pinOrigin(record.origin);
    if (record.checkpoint !== null) await log.recordCheckpoint(record.checkpoint);
  }

  private refuseUnlessEmpty(): void {
    const holds = storeCall(() =>
      this.db
        .prepare<[], { what: string }>(
          `SELECT 'users' AS what FROM users UNION ALL SELECT 'assets' FROM assets
           UNION ALL SELECT 'activities' FROM activities UNION ALL SELECT 'jobs' FROM jobs LIMIT 1`,
        )
        .get(),
    );
    if (holds) throw new StoreNotEmptyError(holds.what);
  }
}
