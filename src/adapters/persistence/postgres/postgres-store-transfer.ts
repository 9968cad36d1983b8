import {
  emptyTransferCounts,
  InvalidTransferError,
  StoreNotEmptyError,
  TRANSFER_ORDER,
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
import { buildTagIndex } from './postgres-asset-tags.js';
import {
  columnArrays,
  insertManySql,
  type Columns,
  type PostgresCodec,
  type RowOf,
} from './postgres-codec.js';
import type { PostgresDatabase, ReservedConnection } from './postgres-database.js';
import { isUniqueViolation } from './postgres-errors.js';
import { named, UNHURRIED, type Queryable } from './postgres-sql.js';
import { buildTransparencyLog, PostgresTransparencyLog } from './postgres-transparency-log.js';

/** Records written per statement, and read per cursor batch. */
const BATCH = 2_000;

/** A kind's table: its codec, and the order its rows are exported in (the order they were written). */
interface TransferTable<K extends StoredKind> {
  readonly codec: PostgresCodec<StoredRecords[K], Columns>;
  readonly order: string;
}

/** Every kind's table, in one place: a kind without one does not compile. */
export const TRANSFER_TABLES: { readonly [K in StoredKind]: TransferTable<K> } = {
  user: { codec: USER_ROWS, order: 'seq' },
  totp_factor: { codec: TOTP_FACTOR_ROWS, order: 'username' },
  recovery_code: { codec: RECOVERY_CODE_ROWS, order: 'username, code_hash' },
  passkey: { codec: PASSKEY_ROWS, order: 'seq' },
  account_event: { codec: ACCOUNT_EVENT_ROWS, order: 'seq' },
  instance_key: { codec: INSTANCE_KEY_ROWS, order: 'id' },
  remote_key: { codec: REMOTE_KEY_ROWS, order: 'seq' },
  issued_token: { codec: ISSUED_TOKEN_ROWS, order: 'seq' },
  revocation: { codec: REVOCATION_ROWS, order: 'seq' },
  attachment: { codec: ATTACHMENT_ROWS, order: 'seq' },
  asset: { codec: ASSET_ROWS, order: 'seq' },
  activity: { codec: ACTIVITY_ROWS, order: 'idx' },
  follower: { codec: FOLLOWER_ROWS, order: 'seq' },
  follow_request: { codec: FOLLOW_REQUEST_ROWS, order: 'seq' },
  actor_block: { codec: ACTOR_BLOCK_ROWS, order: 'seq' },
  domain_rule: { codec: DOMAIN_RULE_ROWS, order: 'created_at, kind, host' },
  job: { codec: JOB_ROWS, order: 'id' },
};

/** Each kind's rows, read through its codec in the table's order, a batch at a time. */
function readers(connection: ReservedConnection): RecordReaders {
  const read = <K extends StoredKind>({ codec, order }: TransferTable<K>) =>
    async function* () {
      const text = `SELECT ${codec.list} FROM ${codec.table} ORDER BY ${order}`;
      for await (const rows of connection.cursor<RowOf<Columns>>(text, [], BATCH))
        for (const row of rows) yield codec.fromRow(row);
    };
  return byKind((kind) => read(TRANSFER_TABLES[kind]));
}

/** The counts the adapters keep in step with every write, rebuilt from what was imported. */
const REBUILD_COUNTS = [
  "UPDATE counters SET value = (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL) WHERE name = 'users'",
  "UPDATE counters SET value = (SELECT COUNT(*) FROM assets WHERE deleted_at IS NULL) WHERE name = 'live_assets'",
  'DELETE FROM user_counts',
  'INSERT INTO user_counts (username, activities) SELECT actor, COUNT(*) FROM activities GROUP BY actor',
  `INSERT INTO user_counts (username, live_assets)
     SELECT owner, COUNT(*) FROM assets WHERE deleted_at IS NULL GROUP BY owner
     ON CONFLICT (username) DO UPDATE SET live_assets = EXCLUDED.live_assets`,
];

export class PostgresStoreTransfer implements StoreTransfer {
  constructor(private readonly db: PostgresDatabase) {}

  async *export(): AsyncGenerator<TransferRecord> {
    // One read-only snapshot for the whole export: consistent even while every instance writes.
    const connection = await this.db.reserve();
    try {
      await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await connection.query(UNHURRIED);
      yield* exportRecords(readers(connection), () => logState(connection));
      await connection.query('COMMIT');
    } finally {
      await connection.query('ROLLBACK').catch(() => undefined);
      connection.release();
    }
  }

  /**
   * All or nothing: one transaction from the emptiness check to the rebuilt counts, tag index and transparency log;
   * a file that turns out to be bad halfway leaves the store as empty as it was. Run once, never retried: a retry
   * would go on reading the file where the failed attempt stopped, and commit its second half alone.
   */
  async import(records: AsyncIterable<TransferRecord>): Promise<TransferCounts> {
    return this.db.transaction(
      async (tx) => {
        await tx.query(UNHURRIED);
        await refuseUnlessEmpty(tx);
        const counts = emptyTransferCounts();
        const pending = new Map<StoredKind, RowOf<Columns>[]>();
        const writers: RecordWriters = byKind((kind) => (value: StoredRecords[StoredKind]) => {
          const rows = pending.get(kind) ?? [];
          rows.push(TRANSFER_TABLES[kind].codec.toRow(value as never));
          pending.set(kind, rows);
        });
        let log: TransparencyLogRecord | null = null;
        for await (const batch of checkedBatches(records, BATCH, counts)) {
          for (const record of batch)
            if (record.record === 'transparency_log') log = record;
            else writeRecord(writers, record);
          await flush(tx, pending);
        }
        for (const statement of REBUILD_COUNTS) await tx.query(statement);
        await buildTagIndex(tx);
        await buildTransparencyLog(tx);
        if (log !== null) await importLogState(new PostgresTransparencyLog(tx), log, counts.activity);
        return counts;
      },
      { once: true },
    );
  }
}

/** Writes the rows waiting, kind by kind in the file's order, one statement per kind. */
async function flush(tx: Queryable, pending: Map<StoredKind, RowOf<Columns>[]>): Promise<void> {
  for (const kind of TRANSFER_ORDER) {
    const rows = pending.get(kind as StoredKind);
    if (!rows?.length) continue;
    const { codec } = TRANSFER_TABLES[kind as StoredKind];
    try {
      await named<Record<string, string>>(insertManySql(codec)).run(tx, columnArrays(codec, rows));
    } catch (error) {
      if (isUniqueViolation(error))
        throw new InvalidTransferError(`the file holds two ${kind} records with one key`);
      throw error;
    }
  }
  pending.clear();
}

async function logState(connection: Queryable): Promise<TransparencyLogRecord> {
  const [row] = await connection.query<{
    origin: string | null;
    checkpoint_size: number | null;
    checkpoint: string | null;
  }>('SELECT origin, checkpoint_size, checkpoint FROM tlog_signed');
  return {
    record: 'transparency_log',
    origin: row?.origin ?? null,
    checkpoint: row?.checkpoint == null ? null : { size: row.checkpoint_size ?? 0, note: row.checkpoint },
  };
}

async function refuseUnlessEmpty(tx: Queryable): Promise<void> {
  const [holds] = await tx.query<{ what: string }>(
    `(SELECT 'users' AS what FROM users LIMIT 1) UNION ALL (SELECT 'assets' FROM assets LIMIT 1)
     UNION ALL (SELECT 'activities' FROM activities LIMIT 1) UNION ALL (SELECT 'jobs' FROM jobs LIMIT 1)
     UNION ALL (SELECT 'domain rules' FROM domain_rules LIMIT 1) LIMIT 1`,
  );
  if (holds) throw new StoreNotEmptyError(holds.what);
}
