import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';
import { storeCall } from './sqlite-errors.js';

/** A step of the schema (migrations.ts lists them). */
export interface Migration {
  readonly version: number;
  readonly sql: string;
  /** Runs after `sql`, in its transaction: what SQL alone cannot fill in (keys only JavaScript computes). */
  readonly fill?: (db: Database) => void;
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`, each in its own IMMEDIATE transaction that
 * checks again for its version after taking the write lock, so two processes opening one file at once apply each
 * migration exactly once. Returns the versions this call applied.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  return storeCall(() => {
    db.transaction(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        applied_at INTEGER NOT NULL
      )`);
    }).immediate();
    const isApplied = db.prepare<[number], unknown>('SELECT 1 FROM schema_migrations WHERE version = ?');
    const record = db.prepare<[number, number]>(
      'INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)',
    );
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      db.transaction(() => {
        if (isApplied.get(migration.version) !== undefined) return;
        db.exec(migration.sql);
        migration.fill?.(db);
        record.run(migration.version, Date.now());
        applied.push(migration.version);
      }).immediate();
    }
    return applied;
  });
}

export function appliedVersions(db: Database): number[] {
  return storeCall(() =>
    db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
      .all()
      .map((row) => row.version),
  );
}
