// Seeds a SQLite store through the persistence adapters, in bulk, before the service is started on it.
// Usage: node --import tsx bench/seed.ts '<SeedOptions as JSON>'
// Progress goes to stderr; the last stdout line is a SeedReport as JSON.
import { randomBytes } from 'node:crypto';
import { openSqlitePersistence } from '../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { Revocation } from '../src/domain/revocation.js';
import type { Username } from '../src/domain/user.js';
import { NO_MOVE } from '../src/domain/account-move.js';
import { EMPTY_PROFILE } from '../src/domain/profile.js';
import { benchActivity, benchProfile, seedFixtures, type SeedFixtures } from './seed-fixtures.js';
import type { SeedOptions, SeedReport } from './seed-types.js';

const options = JSON.parse(process.argv[2] ?? '{}') as SeedOptions;
const DAY = 86_400_000;
const progress = (message: string) => process.stderr.write(`  seed: ${message}\n`);
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

const store = openSqlitePersistence(options.path);
const fixtures = await seedFixtures(options);
const report: SeedReport = {
  bytes: undefined,
  users: 0,
  activities: 0,
  heavyActivities: 0,
  revocations: 0,
  seconds: { fixtures: fixtures.seconds, users: 0, activities: 0, revocations: 0, total: 0 },
  usernames: fixtures.usernames,
};
const started = process.hrtime.bigint();

/** Regular users are u0000001, u0000002, …; the named ones (client, heavy, light) come first. */
const regularName = (n: number) => `u${String(n).padStart(7, '0')}` as Username;
const regularCount = Math.max(1, options.users - 3);

async function seedUsers(f: SeedFixtures): Promise<void> {
  const t = process.hrtime.bigint();
  const createdAt = new Date(Date.now() - 365 * DAY);
  const names = [f.usernames.client, f.usernames.heavy, f.usernames.light];
  for (let n = 1; n <= regularCount; n++) names.push(regularName(n));
  // Every regular user has a full profile whose pictures and pins are assets seedActivities gives them.
  const profileOf = (username: Username) => {
    const n = /^u(\d+)$/.exec(username)?.[1];
    return n === undefined ? EMPTY_PROFILE : benchProfile(Number(n), regularCount, options.activities);
  };
  // One transaction per 1000 users: each create() is still the adapter's own (nested) transaction.
  for (let i = 0; i < names.length; i += 1000) {
    const batch = names.slice(i, i + 1000);
    await inTransaction(async () => {
      for (const username of batch) {
        const outcome = await store.users.create({
          username,
          ...f.credentials,
          createdAt,
          deletedAt: null,
          disabledAt: null,
          profile: profileOf(username),
          profileVersion: /^u\d+$/.test(username) ? 1 : 0,
          move: NO_MOVE,
        });
        if (outcome !== 'created') throw new Error(`user ${username}: ${outcome}`);
      }
    });
    report.users += batch.length;
  }
  report.seconds.users = seconds(t);
  progress(`${report.users} users in ${report.seconds.users.toFixed(1)} s`);
}

/**
 * Every fifth activity is the heavy user's (so its outbox is deep), the light user has a handful, the rest go
 * round-robin over the regular users. Each activity is a Create, so each also registers one live asset.
 */
async function seedActivities(f: SeedFixtures): Promise<void> {
  const t = process.hrtime.bigint();
  const first = await store.activities.nextIdx();
  const base = Date.now() - options.activities * 1000 - DAY;
  const batch = Math.max(1, options.batch);
  for (let start = first; start < first + options.activities; start += batch) {
    const end = Math.min(start + batch, first + options.activities);
    await inTransaction(async () => {
      for (let idx = start; idx < end; idx++) {
        const owner =
          idx % 5 === 0
            ? f.usernames.heavy
            : idx % 5000 === 1
              ? f.usernames.light
              : regularName((idx % regularCount) + 1);
        if (owner === f.usernames.heavy) report.heavyActivities++;
        const { activity, change } = benchActivity(f, idx, owner, new Date(base + idx * 1000));
        const outcome = await store.activities.append(activity, change);
        if (outcome !== 'appended') throw new Error(`activity ${idx}: ${outcome}`);
      }
    });
    report.activities = end - first;
    if ((end - first) % 100_000 === 0 || end === first + options.activities) {
      progress(`${report.activities} activities, ${seconds(t).toFixed(1)} s`);
    }
  }
  report.seconds.activities = seconds(t);
}

/** Random token hashes of regular users, expiring within 30 days: what logouts would have left. */
async function seedRevocations(): Promise<void> {
  const t = process.hrtime.bigint();
  const now = new Date();
  for (let i = 0; i < options.revocations; i += 1000) {
    const n = Math.min(1000, options.revocations - i);
    const random = randomBytes(32 * n);
    const batch: Revocation[] = [];
    for (let j = 0; j < n; j++) {
      batch.push({
        record: {
          tokenHash: random.subarray(j * 32, j * 32 + 32).toString('hex'),
          username: regularName(((i + j) % regularCount) + 1),
          expiresAt: new Date(now.getTime() + (1 + ((i + j) % 29)) * DAY),
        },
        notice: null,
      });
    }
    report.revocations += await store.revocations.revoke(batch, now);
  }
  report.seconds.revocations = seconds(t);
  progress(`${report.revocations} revocations in ${report.seconds.revocations.toFixed(1)} s`);
}

/**
 * Runs `work` inside one SQLite transaction so that a batch of adapter calls commits once. The adapters' own
 * transactions nest as savepoints; their methods are synchronous underneath, so the awaits resolve in order.
 */
async function inTransaction(work: () => Promise<void>): Promise<void> {
  if (options.batch <= 1) return work();
  store.db.exec('BEGIN IMMEDIATE');
  try {
    await work();
    store.db.exec('COMMIT');
  } catch (error) {
    store.db.exec('ROLLBACK');
    throw error;
  }
}

await seedUsers(fixtures);
await seedActivities(fixtures);
await seedRevocations();
store.db.pragma('wal_checkpoint(TRUNCATE)');
// What the transparency log adds to the file: its hashes (one per activity, one per completed tile) and its state.
const sizes = new Map(
  store.db
    .prepare<[], { name: string; bytes: number }>(
      'SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name',
    )
    .all()
    .map((row) => [row.name, row.bytes]),
);
const sum = (names: string[]) => names.reduce((total, name) => total + (sizes.get(name) ?? 0), 0);
report.bytes = {
  tlog: sum(['tlog_hashes', 'tlog_state']),
  activities: sum(['activities', 'activities_by_actor']),
  total: [...sizes.values()].reduce((a, b) => a + b, 0),
};
await store.close();
report.seconds.total = seconds(started) + fixtures.seconds;
console.log(JSON.stringify(report));
