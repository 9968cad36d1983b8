import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenedStore, StoreDriver } from '../store-driver.js';
import {
  openSqlitePersistence,
  type SqliteOptions,
  type SqlitePersistence,
} from './open-sqlite-persistence.js';
import { childProcessFullLogCheck } from './sqlite-full-log-check.js';
import { sqliteRateLimitCounters } from './sqlite-rate-limit-counters.js';
import { sqlitePathIn } from './sqlite-url.js';

/** The SQLite file at `path`, opened and migrated, with its rate-limit counters and its start-up check. */
export function openSqliteStore(path: string, options: SqliteOptions = {}): OpenedStore<SqlitePersistence> {
  const persistence = openSqlitePersistence(path, options);
  return {
    persistence,
    counters: sqliteRateLimitCounters(persistence.db),
    // A file's log is checked at start-up in a child process: the memory its reads leave is not ours.
    ...(path === ':memory:' ? {} : { fullLogCheck: childProcessFullLogCheck(path) }),
  };
}

/** STORE=sqlite:<path>: one file, shared by every process that opens it. */
export const SQLITE_DRIVER: StoreDriver<SqlitePersistence> = {
  open: (url) => openSqliteStore(sqlitePathIn(url)),
  // Each store a file in a directory of its own, removed with it once closed.
  contractHarness: () => ({
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'l2-sqlite-'));
      const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
      return {
        ...store,
        close: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  }),
};
