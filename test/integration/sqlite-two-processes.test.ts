// Separate OS processes appending, claiming and registering on one SQLite file: what the store's locking promises
// (the slow tier: each test starts worker processes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { MIGRATIONS } from '../../src/adapters/persistence/sqlite/migrations.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { appliedVersions } from '../../src/adapters/persistence/sqlite/sqlite-migrate.js';
import { activityFor } from '../support/activity-writers.js';
import { anAsset, anAssetName, aUsername, later, T0 } from '../support/builders.js';
import { runSqliteStoreWorkers } from '../support/run-sqlite-store-workers.js';
import { runWorkerProcesses } from '../support/run-worker-processes.js';

const APPEND_WORKER = fileURLToPath(new URL('../support/sqlite-append-worker.ts', import.meta.url));

describe('SQLite: two processes on one file', () => {
  const tempDirs: string[] = [];
  const freshDbPath = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'l2-sqlite-test-'));
    tempDirs.push(dir);
    return join(dir, 'l2.sqlite');
  };
  afterEach(() => {
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('gives 200 appends, 100 from each of two processes, the idx 0 to 199 exactly once', async function () {
    const path = freshDbPath();

    const results = await runWorkerProcesses<{ indexes: number[]; retries: number }>(APPEND_WORKER, [
      [path, 'first', '100'],
      [path, 'second', '100'],
    ]);

    const indexes = results.flatMap((r) => r.indexes).sort((a, b) => a - b);
    expect(indexes).to.deep.equal(Array.from({ length: 200 }, (_, i) => i));
    const retries = results.reduce((sum, r) => sum + r.retries, 0);
    expect(retries, 'appends that found their idx taken by the other process').to.be.greaterThan(0);
    const store = openSqlitePersistence(path);
    try {
      expect(await store.activities.nextIdx()).to.equal(200);
      expect(await store.assets.count({})).to.equal(200);
      for (const [r, label] of [
        [0, 'first'],
        [1, 'second'],
      ] as const) {
        for (const [i, idx] of (results[r]?.indexes ?? []).entries()) {
          const activity = await store.activities.get(idx);
          expect(activity?.object).to.equal(`${label}-${i}`);
          expect(await store.assets.findByName(anAssetName(`${label}-${i}`))).to.not.equal(null);
        }
      }
      const next = anAsset();
      expect(
        await store.activities.append(activityFor({ kind: 'create', asset: next }, 200), {
          kind: 'create',
          asset: next,
        }),
      ).to.equal('appended');
    } finally {
      await store.close();
    }
  });

  it('hands each of 40 due jobs to exactly one of two processes', async () => {
    const path = freshDbPath();
    const store = openSqlitePersistence(path);
    await store.jobs.enqueue(
      Array.from({ length: 40 }, (_, n) => ({ kind: 'test_job', payload: { n } })),
      T0,
    );
    const queued = store.db
      .prepare<[], { id: number }>('SELECT id FROM jobs')
      .all()
      .map((row) => String(row.id));
    await store.close();

    const results = await runSqliteStoreWorkers<{ claimed: string[] }>([
      [path, 'drain-queue', String(later(1).getTime())],
      [path, 'drain-queue', String(later(1).getTime())],
    ]);

    const claimed = results.flatMap((r) => r.claimed);
    expect(claimed).to.have.length(40);
    expect([...claimed].sort()).to.deep.equal([...queued].sort());
    const reopened = openSqlitePersistence(path);
    expect(await reopened.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
    await reopened.close();
  });

  it('gives one of 20 registrations of a name, split across two processes, the account', async () => {
    const path = freshDbPath();

    const results = await runSqliteStoreWorkers<{ outcomes: string[] }>([
      [path, 'register', 'first', '10'],
      [path, 'register', 'second', '10'],
    ]);

    const outcomes = results.flatMap((r) => r.outcomes);
    expect(outcomes).to.have.length(20);
    expect(outcomes.filter((o) => o === 'created')).to.have.length(1);
    const winner = results[0]?.outcomes.includes('created') ? 'first' : 'second';
    const store = openSqlitePersistence(path);
    const alice = await store.users.findByUsername(aUsername('alice'));
    expect(alice?.passwordHash).to.match(new RegExp(`^${winner}-`));
    expect(appliedVersions(store.db)).to.deep.equal(MIGRATIONS.map((m) => m.version));
    await store.close();
  });
});
