// Seeds a SQLite store with fat activities (issue 33) through the persistence adapters, before the service starts on
// it: Creates of assets at every field limit, ~35 KB each, so that an entry bundle of 256 is ~9 MiB.
// Usage: node --import tsx bench/seed-fat-log.ts '<FatSeedOptions as JSON>'; the last stdout line is a FatSeedReport.
import { openSqlitePersistence } from '../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { Username } from '../src/domain/user.js';
import { benchActivity, fatBenchAsset, seedFixtures } from './seed-fixtures.js';
import type { FatSeedOptions, FatSeedReport } from './seed-types.js';

const options = JSON.parse(process.argv[2] ?? '{}') as FatSeedOptions;
const started = process.hrtime.bigint();
const store = openSqlitePersistence(options.path);
const fixtures = await seedFixtures({ ...options, users: 0, activities: 0, revocations: 0, batch: 256 });
const owner = fixtures.usernames.heavy as Username;
const base = Date.now() - options.activities * 1000;
let entryBytes = 0;
for (let start = 0; start < options.activities; start += 256) {
  store.db.exec('BEGIN IMMEDIATE');
  try {
    for (let idx = start; idx < Math.min(start + 256, options.activities); idx++) {
      const { activity, change } = benchActivity(
        fixtures,
        idx,
        owner,
        new Date(base + idx * 1000),
        fatBenchAsset,
      );
      entryBytes += Buffer.byteLength(JSON.stringify(activity.document));
      const outcome = await store.activities.append(activity, change);
      if (outcome !== 'appended') throw new Error(`activity ${idx}: ${outcome}`);
    }
    store.db.exec('COMMIT');
  } catch (error) {
    store.db.exec('ROLLBACK');
    throw error;
  }
}
store.db.pragma('wal_checkpoint(TRUNCATE)');
await store.close();
const report: FatSeedReport = {
  activities: options.activities,
  meanEntryBytes: entryBytes / Math.max(1, options.activities),
  seconds: Number(process.hrtime.bigint() - started) / 1e9,
};
console.log(JSON.stringify(report));
