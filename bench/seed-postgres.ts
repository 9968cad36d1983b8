// Scenario 13's seeding: the SQLite store the run seeded, moved into an empty PostgreSQL database the way an operator
// moves one (`l2 store export | l2 store import`, without the file between): the SQLite store's StoreTransfer export
// piped into the PostgreSQL store's import — batched multi-row inserts (2,000 records a statement) in one
// transaction, then the counts, the tag index and the transparency log's hashes rebuilt in it.
// Usage: node --import tsx bench/seed-postgres.ts '{"sqlitePath":…,"url":…}'; prints one PostgresSeedReport as JSON.
import { openSqlitePersistence } from '../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { openPostgresPersistence } from '../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { DEFAULT_STORE_SETTINGS } from '../src/adapters/persistence/store-driver.js';

export interface PostgresSeedOptions {
  readonly sqlitePath: string;
  /** An empty database (the import migrates it first). */
  readonly url: string;
}

export interface PostgresSeedReport {
  /** Export and import together, from the first record read to the commit. */
  readonly seconds: number;
  readonly records: number;
  readonly users: number;
  readonly activities: number;
  readonly revocations: number;
  /** pg_database_size after the import (and an ANALYZE, as autovacuum would soon do). */
  readonly databaseBytes: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as PostgresSeedOptions;
const sqlite = openSqlitePersistence(options.sqlitePath);
const postgres = openPostgresPersistence(options.url, { ...DEFAULT_STORE_SETTINGS, poolSize: 2 });
try {
  await postgres.ready();
  const started = process.hrtime.bigint();
  const counts = await postgres.transfer.import(sqlite.transfer.export());
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Fresh statistics, so that the first requests are planned as they will be once autovacuum has run.
  await postgres.database.query('ANALYZE');
  const [size] = await postgres.database.query<{ bytes: number }>(
    'SELECT pg_database_size(current_database()) AS bytes',
  );
  const records = Object.values(counts).reduce((a, b) => a + b, 0);
  const report: PostgresSeedReport = {
    seconds,
    records,
    users: counts.user,
    activities: counts.activity,
    revocations: counts.revocation,
    databaseBytes: Number(size?.bytes ?? 0),
  };
  console.log(JSON.stringify(report));
} finally {
  await postgres.close();
  await sqlite.close();
}
