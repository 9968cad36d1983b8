// A second OS process on one SQLite file, for the cross-process tests in test/adapters/persistence/sqlite.test.ts.
// Usage: node --import tsx sqlite-store-worker.ts <db-path> drain-queue <now-ms>
//        node --import tsx sqlite-store-worker.ts <db-path> register <label> <attempts>
// Prints "ready" once the store is open, waits for a line on stdin so that both workers start together, then
// prints one JSON line with what it did.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Persistence } from '../../src/application/ports/persistence.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { aUser, aUsername } from './builders.js';

async function drainQueue(store: Persistence, now: Date): Promise<{ claimed: string[] }> {
  const claimed: string[] = [];
  for (let round = 0; ; round++) {
    const jobs = await store.jobs.claim({
      now,
      leaseMs: 60_000,
      limit: 2,
      leaseId: `${process.pid}-${round}`,
    });
    if (jobs.length === 0) return { claimed };
    for (const job of jobs) {
      claimed.push(job.id);
      if (!(await store.jobs.complete(job))) throw new Error(`Lost the lease of job ${job.id}`);
    }
  }
}

async function register(
  store: Persistence,
  label: string,
  attempts: number,
): Promise<{ outcomes: string[] }> {
  const users = Array.from({ length: attempts }, (_, i) =>
    aUser({ username: aUsername('alice'), passwordHash: `${label}-${i}` }),
  );
  return { outcomes: await Promise.all(users.map((user) => store.users.create(user))) };
}

const [dbPath, mode, ...args] = process.argv.slice(2);
if (!dbPath || !mode) throw new Error('Usage: sqlite-store-worker.ts <db-path> <mode> [args]');
const store = openSqlitePersistence(dbPath);
const input = createInterface({ input: process.stdin });
console.log('ready');
await once(input, 'line');
input.close();

const result =
  mode === 'drain-queue'
    ? await drainQueue(store, new Date(Number(args[0])))
    : await register(store, args[0] ?? String(process.pid), Number(args[1] ?? 10));
console.log(JSON.stringify(result));
await store.close();
