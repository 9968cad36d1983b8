// A writer process appending to the activity log of one SQLite file, for the cross-process tests in
// test/adapters/persistence/sqlite.test.ts (run through run-worker-processes.ts).
// Usage: node --import tsx sqlite-append-worker.ts <db-path> <label> <appends>
// Prints "ready" once the store is open, waits for a line on stdin so that all workers start together, then
// registers <appends> assets named <label>-0, <label>-1, … (a Create each, pausing about a millisecond between
// reading the next idx and appending, as signing would, and retrying whenever another process took the idx) and
// prints one JSON line: { "indexes": [the idx of each append], "retries": n }.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { appendWithRetry } from './activity-writers.js';
import { anAsset, anAssetName } from './builders.js';

const [dbPath, label, appends] = process.argv.slice(2);
if (!dbPath || !label || !appends)
  throw new Error('Usage: sqlite-append-worker.ts <db-path> <label> <appends>');
const store = openSqlitePersistence(dbPath);
const input = createInterface({ input: process.stdin });
console.log('ready');
await once(input, 'line');
input.close();

const indexes: number[] = [];
let retries = 0;
for (let i = 0; i < Number(appends); i++) {
  const asset = anAsset({ name: anAssetName(`${label}-${i}`) });
  const appended = await appendWithRetry(
    store.activities,
    { kind: 'create', asset },
    { beforeAppend: () => sleep(1) },
  );
  if (appended.outcome !== 'appended') throw new Error(`${asset.name}: ${appended.outcome}`);
  indexes.push(appended.idx);
  retries += appended.retries;
}
console.log(JSON.stringify({ indexes, retries }));
await store.close();
