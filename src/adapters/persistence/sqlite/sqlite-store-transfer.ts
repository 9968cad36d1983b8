import type { Database, Statement } from 'better-sqlite3';
import {
  emptyTransferCounts,
  StoreNotEmptyError,
  type StoreTransfer,
  type TransferCounts,
  type TransferRecord,
} from '../../../application/ports/store-transfer.js';
import type { StoredKind, StoredRecords } from '../stored-records.js';
import {
  byKind,
  exportRecords,
  writeRecord,
  type RecordReaders,
  type RecordWriters,
} from '../table-transfer.js';
import { checkedBatches } from '../transfer-checks.js';
import { importLogState, type TransparencyLogRecord } from '../transparency-import.js';
import { ACTIVITY_ROWS } from './codecs/activity-rows.js';
import { ACTOR_BLOCK_ROWS } from './codecs/actor-block-rows.js';
import { ASSET_ROWS } from './codecs/asset-rows.js';
import {
  DOMAIN_RULE_ROWS,
  FOLLOW_REQUEST_ROWS,
  FOLLOWER_ROWS,
  INSTANCE_KEY_ROWS,
  REMOTE_KEY_ROWS,
} from './codecs/federation-rows.js';
import { JOB_ROWS } from './codecs/job-rows.js';
import {
  ACCOUNT_EVENT_ROWS,
  PASSKEY_ROWS,
  RECOVERY_CODE_ROWS,
  TOTP_FACTOR_ROWS,
} from './codecs/security-rows.js';
import { ATTACHMENT_ROWS, ISSUED_TOKEN_ROWS, REVOCATION_ROWS } from './codecs/token-rows.js';
import { USER_ROWS } from './codecs/user-rows.js';
import { buildTagIndex } from './sqlite-asset-tags.js';
import { insertSql, type Columns, type RowOf, type SqliteCodec } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { buildTransparencyLog, SqliteTransparencyLog } from './sqlite-transparency-log.js';

/** Records written per transaction: large enough to be fast, small enough to keep the write lock short. */
const BATCH = 2_000;

/** A kind's table: its codec, and the order its rows are exported in (the order they were written). */
interface TransferTable<K extends StoredKind> {
  readonly codec: SqliteCodec<StoredRecords[K], Columns>;
  readonly order: string;
}

/** Every kind's table, in one place: a kind without one does not compile. */
export const TRANSFER_TABLES: { readonly [K in StoredKind]: TransferTable<K> } = {
  user: { codec: USER_ROWS, order: 'seq' },
  totp_factor: { codec: TOTP_FACTOR_ROWS, order: 'username' },
  recovery_code: { codec: RECOVERY_CODE_ROWS, order: 'username, code_hash' },
  passkey: { codec: PASSKEY_ROWS, order: 'rowid' },
  account_event: { codec: ACCOUNT_EVENT_ROWS, order: 'seq' },
  instance_key: { codec: INSTANCE_KEY_ROWS, order: 'id' },
  remote_key: { codec: REMOTE_KEY_ROWS, order: 'rowid' },
  issued_token: { codec: ISSUED_TOKEN_ROWS, order: 'rowid' },
  revocation: { codec: REVOCATION_ROWS, order: 'rowid' },
  attachment: { codec: ATTACHMENT_ROWS, order: 'rowid' },
  asset: { codec: ASSET_ROWS, order: 'seq' },
  activity: { codec: ACTIVITY_ROWS, order: 'idx' },
  follower: { codec: FOLLOWER_ROWS, order: 'seq' },
  follow_request: { codec: FOLLOW_REQUEST_ROWS, order: 'seq' },
  actor_block: { codec: ACTOR_BLOCK_ROWS, order: 'seq' },
  domain_rule: { codec: DOMAIN_RULE_ROWS, order: 'created_at, kind, host' },
  job: { codec: JOB_ROWS, order: 'id' },
};

/** Each kind's rows, read through its codec in the table's order. */
function readers(db: Database): RecordReaders {
  const read = <K extends StoredKind>({ codec, order }: TransferTable<K>) => {
    const sql = `SELECT ${codec.list} FROM ${codec.table} ORDER BY ${order}`;
    return function* () {
      for (const row of storeCall(() => db.prepare<[], RowOf<Columns>>(sql).iterate()))
        yield codec.fromRow(row);
    };
  };
  return byKind((kind) => read(TRANSFER_TABLES[kind]));
}

/** Each kind's INSERT of every column of its codec, prepared once per import. */
function writers(db: Database): RecordWriters {
  const write = <K extends StoredKind>({ codec }: TransferTable<K>) => {
    const insert: Statement<[RowOf<Columns>]> = db.prepare(insertSql(codec));
    return (value: StoredRecords[K]) => insert.run(codec.toRow(value));
  };
  return byKind((kind) => write(TRANSFER_TABLES[kind]));
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
      yield* exportRecords(readers(this.db), () => this.logState());
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
      const write = writers(db);
      const counts = emptyTransferCounts();
      let log: TransparencyLogRecord | null = null;
      for await (const batch of checkedBatches(records, BATCH, counts))
        storeCall(() => {
          for (const record of batch)
            if (record.record === 'transparency_log') log = record;
            else writeRecord(write, record);
        });
      storeCall(() => {
        db.exec(REBUILD_COUNTS);
        buildTagIndex(db);
        buildTransparencyLog(db);
      });
      if (log !== null) await importLogState(new SqliteTransparencyLog(this.db), log, counts.activity);
      storeCall(() => db.exec('COMMIT'));
      return counts;
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  }

  private logState(): TransparencyLogRecord {
    const row = storeCall(() =>
      this.db
        .prepare<[], { origin: string | null; checkpoint_size: number | null; checkpoint: string | null }>(
          'SELECT origin, checkpoint_size, checkpoint FROM tlog_state',
        )
        .get(),
    );
    return {
      record: 'transparency_log',
      origin: row?.origin ?? null,
      checkpoint: row?.checkpoint == null ? null : { size: row.checkpoint_size ?? 0, note: row.checkpoint },
    };
  }

  private refuseUnlessEmpty(): void {
    const holds = storeCall(() =>
      this.db
        .prepare<[], { what: string }>(
          `SELECT 'users' AS what FROM users UNION ALL SELECT 'assets' FROM assets
           UNION ALL SELECT 'activities' FROM activities UNION ALL SELECT 'jobs' FROM jobs
           UNION ALL SELECT 'domain rules' FROM domain_rules LIMIT 1`,
        )
        .get(),
    );
    if (holds) throw new StoreNotEmptyError(holds.what);
  }
}
