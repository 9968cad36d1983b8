// Throwaway databases on a PostgreSQL server, for the contract suites and the tests that run L2 on PostgreSQL: each
// a copy of one migrated template (CREATE DATABASE … TEMPLATE), so that a fresh store costs a file copy on the
// server, not the migrations. The template is named after the migrations, so a changed schema gets a new one.
import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_STORE_SETTINGS } from '../store-driver.js';
import { PostgresDatabase } from './postgres-database.js';
import { MIGRATION_LOCK } from './postgres-migrate.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';
import { parsePostgresUrl } from './postgres-url.js';
import { openPostgresPersistence } from './open-postgres-persistence.js';

/** A database made for one store and dropped with it. */
export interface ScratchDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** The same server and options, another database. */
export function withDatabase(url: string, database: string): string {
  const scheme = url.indexOf('://') + 3;
  const pathStart = url.slice(scheme).search(/[/?#]/);
  const authorityEnd = pathStart === -1 ? url.length : scheme + pathStart;
  const queryStart = url.indexOf('?', authorityEnd);
  return `${url.slice(0, authorityEnd)}/${database}${queryStart === -1 ? '' : url.slice(queryStart)}`;
}

const TEMPLATE = `l2_template_${createHash('sha256')
  .update(JSON.stringify(POSTGRES_MIGRATIONS))
  .digest('hex')
  .slice(0, 12)}`;

/** An administrative pool per server: one connection, closed when idle (the tests' processes end by themselves). */
const admins = new Map<string, { db: PostgresDatabase; template: Promise<void> | null }>();

function adminOf(serverUrl: string): { db: PostgresDatabase; template: Promise<void> | null } {
  let admin = admins.get(serverUrl);
  if (!admin) {
    const location = parsePostgresUrl(serverUrl);
    if ('problem' in location) throw new Error(`PostgreSQL test server URL: ${location.problem}`);
    const settings = { ...DEFAULT_STORE_SETTINGS, poolSize: 1, idleTimeoutSeconds: 1 };
    admin = { db: new PostgresDatabase(serverUrl, location, settings), template: null };
    admins.set(serverUrl, admin);
  }
  return admin;
}

/** Makes the migrated template once per server (under the migrations' lock: processes starting together wait). */
async function makeTemplate(serverUrl: string, admin: PostgresDatabase): Promise<void> {
  await admin.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const found = await tx.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE]);
    if (found.length > 0) return;
    // CREATE DATABASE cannot run in a transaction: a second connection makes it while this one holds the lock.
    const maker = openPostgresPersistence(serverUrl, { ...DEFAULT_STORE_SETTINGS, poolSize: 1 }).database;
    const building = `${TEMPLATE}_${randomBytes(4).toString('hex')}`;
    try {
      await maker.query(
        `CREATE DATABASE ${building} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`,
      );
      const store = openPostgresPersistence(withDatabase(serverUrl, building), {
        ...DEFAULT_STORE_SETTINGS,
        poolSize: 1,
      });
      try {
        await store.ready();
      } finally {
        await store.close();
      }
      await maker.query(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE}`);
    } finally {
      await maker.close();
    }
  });
}

/** A new, empty, migrated database on the server at `serverUrl` (its user may create databases). */
export async function scratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const admin = adminOf(serverUrl);
  admin.template ??= makeTemplate(serverUrl, admin.db).catch((error: unknown) => {
    admin.template = null;
    throw error;
  });
  await admin.template;
  const name = `l2_test_${randomBytes(8).toString('hex')}`;
  await admin.db.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  let dropped = false;
  return {
    url: withDatabase(serverUrl, name),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin.db.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
