import Database from 'better-sqlite3';
import type { TransparencyLogStore } from '../../../application/ports/transparency-log-store.js';
import { storeCall } from './sqlite-errors.js';
import { SqliteTransparencyLog } from './sqlite-transparency-log.js';

/**
 * SQLite's page cache for the whole-log check, in KiB: the check reads each page once, in order, so a cache serves
 * it nothing, and the default (16 MiB in better-sqlite3's build) would only fill with pages never read again.
 */
const CHECK_CACHE_KIB = 2_000;

/** The transparency log of an existing SQLite file, read through a connection of its own. */
export interface TransparencyLogReader {
  readonly store: TransparencyLogStore;
  close(): void;
}

/**
 * Opens the SQLite file at `path` read-only (no migration, no write) for one pass over its whole log: the start-up
 * check run in a child process (sqlite-full-log-check.ts).
 */
export function openTransparencyLogReader(path: string): TransparencyLogReader {
  const db = storeCall(() => new Database(path, { readonly: true, fileMustExist: true }));
  try {
    storeCall(() => {
      db.pragma('busy_timeout = 5000');
      db.pragma(`cache_size = -${CHECK_CACHE_KIB}`);
    });
    return { store: new SqliteTransparencyLog(db), close: () => db.close() };
  } catch (error) {
    db.close();
    throw error;
  }
}
