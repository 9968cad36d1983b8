import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { appliedVersions, migrate, MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations.js';
import {
  openSqlitePersistence,
  type SqlitePersistence,
} from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { storeCall } from '../../../src/adapters/persistence/sqlite/sqlite-errors.js';
import { StoreUnavailableError } from '../../../src/application/ports/errors.js';
import type { PersistenceHarness } from '../../contract/harness.js';
import { issuedTokenRegistryContract } from '../../contract/issued-token-registry.contract.js';
import { jobQueueContract } from '../../contract/job-queue.contract.js';
import { rendererAttachmentsContract } from '../../contract/renderer-attachments.contract.js';
import { revocationStoreContract } from '../../contract/revocation-store.contract.js';
import { storeHealthContract } from '../../contract/store-health.contract.js';
import { userRepositoryContract } from '../../contract/user-repository.contract.js';
import { aRevocation, aUser, aUsername, later, T0 } from '../../support/builders.js';
import { runSqliteStoreWorkers } from '../../support/run-sqlite-store-workers.js';

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

  const harness: PersistenceHarness = { open: async () => openSqlitePersistence(freshDbPath()) };

  userRepositoryContract('sqlite', harness);
  issuedTokenRegistryContract('sqlite', harness);
  revocationStoreContract('sqlite', harness);
  rendererAttachmentsContract('sqlite', harness);
  jobQueueContract('sqlite', harness);
  storeHealthContract('sqlite', harness);

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

    it('classifies extended result codes such as SQLITE_BUSY_SNAPSHOT as unavailable', () => {
      expect(() =>
        storeCall(() => {
          throw new Database.SqliteError('snapshot', 'SQLITE_BUSY_SNAPSHOT');
        }),
      ).to.throw(StoreUnavailableError);
    });
  });

  describe('two processes on one file', () => {
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
      expect(await reopened.jobs.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
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
