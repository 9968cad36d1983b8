import type { PostgresDatabase } from './postgres-database.js';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './postgres-migrations.js';
import { UNHURRIED } from './postgres-sql.js';

/**
 * The advisory lock every migration transaction takes first (`pg_advisory_xact_lock`, released at its end): of
 * instances started together on one database, one applies each migration and the others, waiting, find it done.
 * Any fixed number serves; this one spells "L2migr".
 */
export const MIGRATION_LOCK = 0x4c326d696772;

const LOCKED = 'SELECT pg_advisory_xact_lock($1)';

const TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in version order, each in its own transaction
 * that checks again for its version once it holds the lock. Returns the versions this call applied. `upTo` stops
 * after that version (the tests make a store as an older L2 left it).
 */
export async function migrate(
  db: PostgresDatabase,
  migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS,
  upTo = Infinity,
): Promise<number[]> {
  // The common case — every instance start after the first — reads one row set and takes no lock.
  const recorded = new Set(await appliedVersions(db));
  const wanted = migrations.filter((m) => m.version <= upTo);
  if (wanted.every((m) => recorded.has(m.version))) return [];
  await db.transaction(async (tx) => {
    await tx.query(UNHURRIED);
    await tx.query(LOCKED, [MIGRATION_LOCK]);
    await tx.query(TABLE);
  });
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version > upTo) break;
    const done = await db.transaction(async (tx) => {
      await tx.query(UNHURRIED);
      await tx.query(LOCKED, [MIGRATION_LOCK]);
      const found = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (found.length > 0) return false;
      await tx.query(migration.sql);
      await migration.fill?.(tx);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/** The versions recorded as applied, in order (none before the first migration). */
export async function appliedVersions(db: PostgresDatabase): Promise<number[]> {
  const exists = await db.query<{ found: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS found",
  );
  if (exists[0]?.found == null) return [];
  const rows = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return rows.map((row) => row.version);
}
