import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { PENDING_IN_LANE_SQL } from '../../../src/adapters/persistence/sqlite/job-insert.js';
import { MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations.js';
import { appliedVersions, migrate } from '../../../src/adapters/persistence/sqlite/sqlite-migrate.js';
import {
  openSqlitePersistence,
  type SqlitePersistence,
} from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import {
  activityCountQuery,
  activitySeekQuery,
  NEXT_IDX_SQL,
} from '../../../src/adapters/persistence/sqlite/sqlite-activity-log.js';
import {
  assetCountQuery,
  assetSeekQuery,
} from '../../../src/adapters/persistence/sqlite/sqlite-asset-repository.js';
import { SQLITE_DRIVER } from '../../../src/adapters/persistence/sqlite/sqlite-driver.js';
import { storeCall } from '../../../src/adapters/persistence/sqlite/sqlite-errors.js';
import { prefixSuccessor, type Query } from '../../../src/adapters/persistence/sqlite/sqlite-seeks.js';
import type { AssetChange } from '../../../src/application/ports/activity-log.js';
import { StoreUnavailableError } from '../../../src/application/ports/errors.js';
import type { AssetName } from '../../../src/domain/asset.js';
import { profileOf } from '../../../src/domain/user.js';
import { persistenceContracts } from '../../contract/persistence-contracts.js';
import { activityFor, appendWithRetry, registerAssets } from '../../support/activity-writers.js';
import {
  anActivity,
  anAsset,
  anAssetName,
  aRevocation,
  aUser,
  aUsername,
  later,
  MINUTE,
  T0,
} from '../../support/builders.js';
import { runSqliteStoreWorkers } from '../../support/run-sqlite-store-workers.js';
import { runWorkerProcesses } from '../../support/run-worker-processes.js';

const APPEND_WORKER = fileURLToPath(new URL('../../support/sqlite-append-worker.ts', import.meta.url));

/** The details of the query plan SQLite picks for `query`, one line per step. */
function queryPlan(db: Database.Database, query: Query): string[] {
  return db
    .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`)
    .all(...query.params)
    .map((row) => row.detail);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected a rejection.');
}

describe('SQLite persistence', () => {
  const tempDirs: string[] = [];
  const freshDbPath = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'l2-sqlite-test-'));
    tempDirs.push(dir);
    return join(dir, 'l2.sqlite');
  };
  // Mocha runs this after the contracts' own afterEach has closed the store.
  afterEach(() => {
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  persistenceContracts('sqlite', SQLITE_DRIVER.contractHarness());

  describe('opening', () => {
    const opened: SqlitePersistence[] = [];
    const open = (path: string): SqlitePersistence => {
      const store = openSqlitePersistence(path);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('applies every migration to a new file and records its version', () => {
      const store = open(freshDbPath());

      expect(appliedVersions(store.db)).to.deep.equal(MIGRATIONS.map((m) => m.version));
    });

    it('applies no migration again on reopening, and keeps the data', async () => {
      const path = freshDbPath();
      const alice = aUser({ username: aUsername('alice') });
      const first = open(path);
      await first.users.create(alice);
      await first.close();

      const second = open(path);

      expect(migrate(second.db)).to.deep.equal([]);
      expect(appliedVersions(second.db)).to.deep.equal(MIGRATIONS.map((m) => m.version));
      expect(await second.users.findByUsername(alice.username)).to.deep.equal(alice);
    });

    it('fills the per-user counts from existing data when migration 3 is applied to an older file', async () => {
      const path = freshDbPath();
      const store = open(path);
      const alice = aUsername('alice');
      const bob = aUsername('bob');
      const [a1, a2, b1] = [anAsset({ owner: alice }), anAsset({ owner: alice }), anAsset({ owner: bob })];
      await registerAssets(store.activities, [a1, a2, b1]);
      await appendWithRetry(
        store.activities,
        { kind: 'delete', name: a2.name, deletedAt: later(MINUTE) },
        { actor: alice },
      );
      // Turn the file back into one that predates migration 3.
      store.db.exec('DROP TABLE user_counts; DELETE FROM schema_migrations WHERE version = 3;');
      await store.close();

      const upgraded = open(path);
      expect(await upgraded.activities.count({ actor: alice })).to.equal(3);
      expect(await upgraded.activities.count({ actor: bob })).to.equal(1);
      expect(await upgraded.assets.count({ owner: alice })).to.equal(1);
      expect(await upgraded.assets.count({ owner: bob })).to.equal(1);
      expect(await upgraded.assets.count({ owner: aUsername('nobody') })).to.equal(0);
    });

    it('gives users registered before migration 2 positions in their registration order, and counts them', async () => {
      const path = freshDbPath();
      const old = new Database(path);
      migrate(old, MIGRATIONS.slice(0, 1));
      const insert = old.prepare(
        `INSERT INTO users (username, password_hash, public_key_pem, private_key_pem, created_at)
         VALUES (?, ?, ?, ?, ?)`,
      );
      const users = ['zed', 'amy', 'mia'].map((name, i) =>
        aUser({ username: aUsername(name), createdAt: later((3 - i) * MINUTE) }),
      );
      for (const u of users)
        insert.run(u.username, u.passwordHash, u.publicKeyPem, u.privateKeyPem, u.createdAt.getTime());
      old.close();

      const store = open(path);
      const newcomer = aUser({ username: aUsername('bob') });
      await store.users.create(newcomer);

      const listed = await store.users.listOlder(null, 10);
      expect(listed.map((e) => e.value)).to.deep.equal([newcomer, ...[...users].reverse()].map(profileOf));
      expect(listed.map((e) => e.position)).to.deep.equal([4, 3, 2, 1]);
      expect(await store.users.count()).to.equal(4);
      expect(await store.users.findByUsername(aUsername('amy'))).to.deep.equal(users[1]);
      expect(await store.users.create(aUser({ username: aUsername('mia') }))).to.equal('taken');
    });

    it('keeps the activity log, assets and counts across a reopen, and appends on at the next idx', async () => {
      const path = freshDbPath();
      const appendAt = (store: SqlitePersistence, idx: number, change: AssetChange): Promise<string> =>
        store.activities.append(activityFor(change, idx), change);
      const [kept, gone] = [anAsset(), anAsset()];
      const first = open(path);
      await registerAssets(first.activities, [kept, gone]);
      await appendAt(first, 2, { kind: 'delete', name: gone.name, deletedAt: later(MINUTE) });
      const appended = await Promise.all([0, 1, 2].map((idx) => first.activities.get(idx)));
      await first.close();

      const second = open(path);

      expect(await second.activities.nextIdx()).to.equal(3);
      expect(await Promise.all([0, 1, 2].map((idx) => second.activities.get(idx)))).to.deep.equal(appended);
      expect(await second.assets.findByName(kept.name)).to.deep.equal(kept);
      expect(await second.assets.findByName(gone.name)).to.deep.equal({ ...gone, deletedAt: later(MINUTE) });
      expect(await second.assets.count({})).to.equal(1);
      expect(await appendAt(second, 2, { kind: 'create', asset: anAsset() })).to.equal('idx_taken');
      expect(await appendAt(second, 3, { kind: 'create', asset: anAsset() })).to.equal('appended');
      expect(await second.activities.nextIdx()).to.equal(4);
      expect(await second.assets.count({})).to.equal(2);
    });

    it('sets WAL, NORMAL sync, a 5 s busy timeout and foreign keys', () => {
      const { db } = open(freshDbPath());

      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.pragma('synchronous', { simple: true })).to.equal(1);
      expect(db.pragma('busy_timeout', { simple: true })).to.equal(5000);
      expect(db.pragma('foreign_keys', { simple: true })).to.equal(1);
    });

    it('creates missing parent directories', async () => {
      const path = join(freshDbPath(), '..', 'nested', 'deeper', 'l2.sqlite');

      await open(path).health.ping();
    });

    it('opens a private in-memory database for :memory:', async () => {
      const store = open(':memory:');

      expect(await store.users.create(aUser())).to.equal('created');
      expect(await store.users.count()).to.equal(1);
    });
  });

  describe('when the store cannot answer', () => {
    it('rejects ping and revocation lookups with StoreUnavailableError once the connection is closed', async () => {
      const store = openSqlitePersistence(freshDbPath());
      store.db.close();

      const ping = await rejection(store.health.ping());
      const lookup = await rejection(store.revocations.isRevoked(aRevocation().record.tokenHash));

      expect(ping).to.be.instanceOf(StoreUnavailableError);
      expect(lookup).to.be.instanceOf(StoreUnavailableError);
      expect((lookup as Error).cause).to.be.instanceOf(TypeError);
    });

    it('rejects a write with StoreUnavailableError while another connection holds the write lock', async () => {
      const path = freshDbPath();
      const store = openSqlitePersistence(path);
      const other = new Database(path);
      try {
        store.db.pragma('busy_timeout = 0');
        other.exec('BEGIN IMMEDIATE');

        const error = await rejection(store.revocations.revoke([aRevocation()], T0));

        expect(error).to.be.instanceOf(StoreUnavailableError);
        expect((error as Error).cause).to.have.property('code', 'SQLITE_BUSY');
      } finally {
        other.close();
        await store.close();
      }
    });

    it('lets errors that are not about availability through unchanged', () => {
      const constraint = new Database.SqliteError('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE');
      const bug = new TypeError('undefined is not a function');

      for (const error of [constraint, bug]) {
        expect(() =>
          storeCall(() => {
            throw error;
          }),
        ).to.throw(error);
      }
    });

    it('rejects an append with StoreUnavailableError while another connection holds the write lock, writing nothing', async () => {
      const path = freshDbPath();
      const store = openSqlitePersistence(path);
      const other = new Database(path);
      try {
        store.db.pragma('busy_timeout = 0');
        other.exec('BEGIN IMMEDIATE');
        const asset = anAsset();

        const error = await rejection(
          store.activities.append(anActivity({ object: asset.name }), { kind: 'create', asset }),
        );

        expect(error).to.be.instanceOf(StoreUnavailableError);
        other.exec('ROLLBACK');
        expect(await store.activities.nextIdx()).to.equal(0);
        expect(await store.assets.findByName(asset.name)).to.equal(null);
      } finally {
        other.close();
        await store.close();
      }
    });

    it('classifies extended result codes such as SQLITE_BUSY_SNAPSHOT as unavailable', () => {
      expect(() =>
        storeCall(() => {
          throw new Database.SqliteError('snapshot', 'SQLITE_BUSY_SNAPSHOT');
        }),
      ).to.throw(StoreUnavailableError);
    });
  });

  describe('query plans: every list seeks an index, at any depth', () => {
    let store: SqlitePersistence;
    before(async () => {
      store = openSqlitePersistence(':memory:');
      const owners = [aUsername('alice'), aUsername('bob')];
      await registerAssets(
        store.activities,
        Array.from({ length: 20 }, (_, i) => anAsset({ owner: owners[i % 2] ?? aUsername('alice') })),
      );
    });
    after(async () => {
      await store.close();
    });

    const alice = aUsername('alice');
    const plans: [string, () => Query, RegExp][] = [
      [
        'live assets, older',
        () => assetSeekQuery({}, 'older', 10, 5),
        /SEARCH assets USING INDEX assets_live_by_seq/,
      ],
      [
        'live assets, newest page',
        () => assetSeekQuery({}, 'older', Number.MAX_SAFE_INTEGER, 5),
        /SEARCH assets USING INDEX assets_live_by_seq/,
      ],
      [
        'live assets, newer',
        () => assetSeekQuery({}, 'newer', 10, 5),
        /SEARCH assets USING INDEX assets_live_by_seq/,
      ],
      [
        "an owner's live assets, older",
        () => assetSeekQuery({ owner: alice }, 'older', 10, 5),
        /SEARCH assets USING INDEX assets_live_by_owner \(owner=\? AND seq<\?\)/,
      ],
      [
        "an owner's live assets, newer",
        () => assetSeekQuery({ owner: alice }, 'newer', 10, 5),
        /SEARCH assets USING INDEX assets_live_by_owner \(owner=\? AND seq>\?\)/,
      ],
      [
        'live assets by name prefix',
        () => assetSeekQuery({ namePrefix: 'asset-1' }, 'older', 10, 5),
        /SEARCH assets USING INDEX assets_live_by_name/,
      ],
      ['count of live assets', () => assetCountQuery({}), /SEARCH counters/],
      [
        "count of an owner's live assets (one counter row)",
        () => assetCountQuery({ owner: alice }),
        /SEARCH user_counts USING INDEX sqlite_autoindex_user_counts_1 \(username=\?\)/,
      ],
      [
        'count by name prefix',
        () => assetCountQuery({ namePrefix: 'asset-1' }),
        /SEARCH assets USING COVERING INDEX assets_live_by_name/,
      ],
      [
        'activities, older',
        () => activitySeekQuery({}, 'older', 10, 5),
        /SEARCH activities USING INTEGER PRIMARY KEY \(rowid<\?\)/,
      ],
      [
        'activities, newer',
        () => activitySeekQuery({}, 'newer', 10, 5),
        /SEARCH activities USING INTEGER PRIMARY KEY \(rowid>\?\)/,
      ],
      [
        "an actor's activities, older",
        () => activitySeekQuery({ actor: alice }, 'older', 10, 5),
        /SEARCH activities USING INDEX activities_by_actor \(actor=\? AND idx<\?\)/,
      ],
      [
        "an actor's activities, newer",
        () => activitySeekQuery({ actor: alice }, 'newer', 10, 5),
        /SEARCH activities USING INDEX activities_by_actor \(actor=\? AND idx>\?\)/,
      ],
      [
        'live assets of a tag, newest page',
        () => assetSeekQuery({ tag: 'Art' }, 'older', Number.MAX_SAFE_INTEGER, 5),
        /SEARCH t USING PRIMARY KEY \(tag=\? AND seq<\?\)\nSEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      ],
      [
        'live assets of a tag, older',
        () => assetSeekQuery({ tag: 'Art' }, 'older', 10, 5),
        /SEARCH t USING PRIMARY KEY \(tag=\? AND seq<\?\)\nSEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      ],
      [
        'live assets of a tag, newer',
        () => assetSeekQuery({ tag: 'Art' }, 'newer', 10, 5),
        /SEARCH t USING PRIMARY KEY \(tag=\? AND seq>\?\)\nSEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      ],
      [
        "an owner's live assets of a tag (the tag's range, each asset checked)",
        () => assetSeekQuery({ tag: 'Art', owner: alice, namePrefix: 'asset' }, 'older', 10, 5),
        /SEARCH t USING PRIMARY KEY \(tag=\? AND seq<\?\)\nSEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      ],
      [
        "count of a tag's live assets (one counter row)",
        () => assetCountQuery({ tag: 'Art' }),
        /^SEARCH tag_counts USING PRIMARY KEY \(tag=\?\)$/,
      ],
      [
        "count of an owner's live assets of a tag",
        () => assetCountQuery({ tag: 'Art', owner: alice }),
        /SEARCH t USING PRIMARY KEY \(tag=\?\)\nSEARCH a USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      ],
      ['next idx', () => ({ sql: NEXT_IDX_SQL, params: [] }), /SEARCH activities/],
      ['count of activities', () => activityCountQuery({}), /SEARCH activities/],
      [
        "count of an actor's activities (one counter row)",
        () => activityCountQuery({ actor: alice }),
        /SEARCH user_counts USING INDEX sqlite_autoindex_user_counts_1 \(username=\?\)/,
      ],
    ];
    for (const [what, query, expected] of plans) {
      it(`${what}: ${expected.source}`, () => {
        const plan = queryPlan(store.db, query());

        expect(plan.join('\n')).to.match(expected);
        expect(
          plan.filter((step) => /\bSCAN\b/.test(step)),
          plan.join('\n'),
        ).to.deep.equal([]);
      });
    }

    it("counts a user's followers in the primary key index", () => {
      const plan = queryPlan(store.db, {
        sql: 'SELECT COUNT(*) AS n FROM followers WHERE username = ?',
        params: ['alice'],
      });

      expect(plan.join('\n')).to.match(/SEARCH followers USING COVERING INDEX/);
    });

    it('runs the queries it plans: the adapters give the same answers', async () => {
      expect(await store.assets.count({ owner: alice })).to.equal(10);
      expect(await store.assets.count({ tag: 'TEST' })).to.equal(20);
      expect(await store.assets.count({ tag: 'test', owner: alice })).to.equal(10);
      expect(await store.activities.count({ actor: alice })).to.equal(10);
      expect(await store.activities.count({})).to.equal(20);
    });
  });

  describe('a lane backed off (issue 23)', () => {
    it('is one row: backing off a lane of 100,000 waiting jobs rewrites none of them, and claims respect it', async function () {
      const store = openSqlitePersistence(':memory:');
      try {
        const lane = 'https://down.example';
        await store.jobs.enqueue(
          Array.from({ length: 100_000 }, (_, n) => ({ kind: 'activity_delivery', payload: { n }, lane })),
          T0,
        );
        const changes = () => store.db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
        const before = changes();

        await store.jobs.postponeLane(lane, later(MINUTE), T0);

        expect(changes() - before, 'rows written').to.equal(1);
        const claim = (now: Date) =>
          store.jobs.claim({ now, leaseMs: MINUTE, limit: 10, leaseId: `l${+now}` });
        expect(await claim(later(MINUTE - 1))).to.deep.equal([]);
        expect(await claim(later(MINUTE))).to.have.length(1);
      } finally {
        await store.close();
      }
    });

    it('counts the Accepts waiting for a host through its index, reading at most the cap', async () => {
      const store = openSqlitePersistence(':memory:');
      try {
        const plan = queryPlan(store.db, {
          sql: PENDING_IN_LANE_SQL,
          params: ['https://big.example', 'document_delivery', 1000],
        });

        expect(plan.join('\n')).to.match(/SEARCH jobs USING COVERING INDEX jobs_pending_by_lane_kind/);
      } finally {
        await store.close();
      }
    });
  });

  describe('name prefix bounds', () => {
    it('bounds a prefix by the next string in code point order', () => {
      expect(prefixSuccessor('cat')).to.equal('cau');
      expect(prefixSuccessor('ca_')).to.equal('ca`');
      expect(prefixSuccessor('Z')).to.equal('[');
      expect(prefixSuccessor('caf\u00e9')).to.equal('caf\u00ea');
      expect(prefixSuccessor('a\u{10FFFF}')).to.equal('b');
      expect(prefixSuccessor('a\u{10FFFF}\u{10FFFF}')).to.equal('b');
      expect(prefixSuccessor('\uD7FF')).to.equal('\uE000');
      expect(prefixSuccessor('\uFFFF')).to.equal('\u{10000}');
      expect(prefixSuccessor('\u{10FFFF}')).to.equal(null);
    });

    it('finds names above the Basic Multilingual Plane and right below the bound by their prefix only', async () => {
      const store = openSqlitePersistence(':memory:');
      try {
        const names = ['a\u{1F3A8}x', 'a\u{1F3A8}', 'a\u{1F3A9}', 'a\uFFFF', 'a\u{10FFFF}z', 'b'];
        await registerAssets(
          store.activities,
          names.map((name) => anAsset({ name: name as AssetName })),
        );

        const found = async (namePrefix: string): Promise<string[]> =>
          (await store.assets.listNewer({ namePrefix }, -1, 100)).map((e) => e.value.name);

        expect(await found('a\u{1F3A8}')).to.deep.equal(['a\u{1F3A8}x', 'a\u{1F3A8}']);
        expect(await found('a\uFFFF')).to.deep.equal(['a\uFFFF']);
        expect(await found('a\u{10FFFF}')).to.deep.equal(['a\u{10FFFF}z']);
        expect(await found('a')).to.have.length(5);
      } finally {
        await store.close();
      }
    });
  });

  describe('two processes on one file', () => {
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
});
