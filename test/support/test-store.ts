// The store of a test server: what the test asks for (memory, or a SQLite file in its folder) — or, when the suite
// runs with L2_TEST_STORE=postgres, a fresh PostgreSQL database per server folder, so that the whole HTTP suite
// runs against PostgreSQL (`npm run test:http:postgres`). A server restarted on the same folder finds its database
// again, as it would find its SQLite file.
import { join } from 'node:path';
import type { ScratchDatabase } from '../../src/adapters/persistence/postgres/postgres-scratch-databases.js';
import { freshDatabase } from './postgres-cluster.js';

/** Which store every test server runs on, whatever the test asks: `postgres`, or the test's own choice. */
export const TEST_STORE_OVERRIDE = process.env.L2_TEST_STORE;

/** The database of each server folder, made on first use there. */
const databases = new Map<string, Promise<ScratchDatabase>>();

/**
 * Databases made ahead, while the tests run (a copy of the template takes a few hundred milliseconds, and many
 * files start a server per test).
 */
const AHEAD = 2;
const ready: Promise<ScratchDatabase>[] = [];

function nextDatabase(): Promise<ScratchDatabase> {
  while (ready.length < AHEAD + 1) {
    const made = freshDatabase();
    // Not yet awaited by anyone: a failure is seen by the test that takes it.
    made.catch(() => undefined);
    ready.push(made);
  }
  return ready.shift()!;
}

/** The STORE of a test server whose folder is `dir`; `pinned`: the one asked for, whatever the override. */
export async function testStore(
  asked: 'memory' | 'sqlite' | undefined,
  dir: string,
  pinned = false,
): Promise<string> {
  if (TEST_STORE_OVERRIDE !== undefined && !['', 'postgres'].includes(TEST_STORE_OVERRIDE))
    throw new Error(`L2_TEST_STORE: only postgres is known (got ${TEST_STORE_OVERRIDE})`);
  if (TEST_STORE_OVERRIDE === 'postgres' && !pinned) {
    let database = databases.get(dir);
    if (!database) databases.set(dir, (database = nextDatabase()));
    return (await database).url;
  }
  return asked === 'sqlite' ? `sqlite:${join(dir, 'l2.sqlite')}` : 'memory:';
}

/**
 * Drops the database of the server folder `dir`, if one was made (its folder is gone) — in the background: the
 * next test need not wait for it, and the cluster goes at the end of the run anyway.
 */
export async function dropTestDatabase(dir: string): Promise<void> {
  const database = databases.get(dir);
  if (!database) return;
  databases.delete(dir);
  void database.then((d) => d.drop()).catch(() => undefined);
}
