// What docs/deploy.md and ADR 18 claim of several instances on one PostgreSQL database, each claim run here: two
// stores with pools of their own stand for two instances (two processes hold nothing more between them than two
// pools do: each its own connections to one database).
import { expect } from 'chai';
import { openPostgresPersistence } from '../../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { EXPIRED_BATCH } from '../../../src/adapters/persistence/postgres/postgres-expiry.js';
import { MIGRATION_LOCK, migrate } from '../../../src/adapters/persistence/postgres/postgres-migrate.js';
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/postgres-migrations.js';
import { DEFAULT_STORE_SETTINGS } from '../../../src/adapters/persistence/store-driver.js';
import { aRevocation, later, MINUTE, T0 } from '../../support/builders.js';
import {
  POSTGRES_SKIPPED,
  freshDatabase,
  passwordDatabase,
  postgresAvailable,
} from '../../support/postgres-cluster.js';

const SETTINGS = { ...DEFAULT_STORE_SETTINGS, poolSize: 2 };

describe('PostgreSQL: several instances on one database', function () {
  if (!postgresAvailable()) {
    console.log(`      ${POSTGRES_SKIPPED}`);
    return;
  }

  /** Two stores on one fresh migrated database; closed and dropped after `work`. */
  async function twoInstances(
    work: (
      a: ReturnType<typeof openPostgresPersistence>,
      b: ReturnType<typeof openPostgresPersistence>,
    ) => Promise<void>,
  ): Promise<void> {
    const scratch = await freshDatabase();
    const a = openPostgresPersistence(scratch.url, SETTINGS);
    const b = openPostgresPersistence(scratch.url, SETTINGS);
    try {
      await Promise.all([a.ready(), b.ready()]);
      await work(a, b);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  }

  it('a store made by an older L2 (schema version 1) migrates forward and keeps what it held', async () => {
    const database = await passwordDatabase();
    const store = openPostgresPersistence(database.url, SETTINGS);
    try {
      expect(await migrate(store.database, POSTGRES_MIGRATIONS, 1)).to.deep.equal([1]);
      const revoked = aRevocation();
      // Written as version 1 has it, by hand: today's adapters write tables of later versions too.
      await store.database.query(
        `INSERT INTO revocations (token_hash, username, expires_at, revoked_at) VALUES ($1, $2, $3, $4)`,
        [revoked.record.tokenHash, revoked.record.username, revoked.record.expiresAt, T0],
      );
      await store.ready();
      const versions = POSTGRES_MIGRATIONS.map((m) => m.version);
      expect(await store.describeSchema()).to.contain(`at version ${Math.max(...versions)}`);
      expect(await store.revocations.isRevoked(revoked.record.tokenHash)).to.equal(true);
      expect(await store.users.count()).to.equal(0);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('a failed migration releases its lock: another instance migrates at once', async () => {
    const database = await passwordDatabase();
    const failing = openPostgresPersistence(database.url, SETTINGS);
    const other = openPostgresPersistence(database.url, SETTINGS);
    try {
      const broken = [...POSTGRES_MIGRATIONS, { version: 999, name: 'broken', sql: 'SELEC 1' }];
      const failure = await migrate(failing.database, broken).then(
        () => 'migrated',
        (error: Error) => error.message,
      );
      expect(failure).to.match(/syntax error/);
      // Held still, the lock would make this try fail (and the next instance's migration wait forever).
      const [row] = await other.database.query<{ taken: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS taken',
        [MIGRATION_LOCK],
      );
      expect(row!.taken).to.equal(true);
      await other.database.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      await other.ready();
      expect(await other.describeSchema()).to.contain(
        `migrations ${POSTGRES_MIGRATIONS.map((m) => m.version).join(', ')} applied`,
      );
    } finally {
      await failing.close();
      await other.close();
      await database.drop();
    }
  });

  it("a dead instance's job is taken again by another once its lease runs out, never before", async () => {
    await twoInstances(async (a, b) => {
      await a.jobs.enqueue([{ kind: 'test_job', payload: { n: 1 } }], T0);
      const [taken] = await a.jobs.claim({ now: T0, leaseMs: MINUTE, limit: 10, leaseId: 'a-1' });
      expect(taken).to.not.equal(undefined);
      await a.close(); // the instance dies: its connections end, its lease stays

      const claim = (now: Date) => b.jobs.claim({ now, leaseMs: MINUTE, limit: 10, leaseId: 'b-1' });
      expect(await claim(later(MINUTE - 1))).to.deep.equal([]);
      const [again] = await claim(later(MINUTE + 1));
      expect(again?.id).to.equal(taken!.id);
      expect(await b.jobs.complete(again!)).to.equal(true);
    });
  });

  it('the revocation clean-up run by every instance at once deletes each record once, and only expired ones', async () => {
    await twoInstances(async (a, b) => {
      // More than two of the clean-up's short statements' worth: the batches of both instances add up exactly.
      const expired = Array.from({ length: 2 * EXPIRED_BATCH + 17 }, () => aRevocation({ expiresAt: T0 }));
      const live = aRevocation({ expiresAt: later(60 * MINUTE) });
      await a.revocations.revoke([...expired, live], T0);

      const counts = await Promise.all([
        a.revocations.deleteExpired(later(1)),
        b.revocations.deleteExpired(later(1)),
        a.revocations.deleteExpired(later(1)),
        b.revocations.deleteExpired(later(1)),
      ]);

      expect(counts.reduce((sum, n) => sum + n, 0)).to.equal(expired.length);
      expect(await b.revocations.isRevoked(live.record.tokenHash)).to.equal(true);
      expect(await a.revocations.isRevoked(expired[0]!.record.tokenHash)).to.equal(false);
    });
  });
  it("verify's revocation lookups, 300 at once, are each answered right — in fewer statements than lookups", async () => {
    await twoInstances(async (a, b) => {
      const revoked = Array.from({ length: 150 }, () => aRevocation({ expiresAt: later(60 * MINUTE) }));
      const live = Array.from({ length: 150 }, () => aRevocation()).map((r) => r.record.tokenHash);
      await a.revocations.revoke(revoked, T0);
      let statements = 0;
      b.database.instruments.onOperation(({ kind }) => (statements += kind === 'statement' ? 1 : 0));

      const hashes = [...revoked.map((r) => r.record.tokenHash), ...live];
      const answers = await Promise.all(hashes.map((hash) => b.revocations.isRevoked(hash)));

      expect(answers.filter(Boolean)).to.have.length(150);
      expect(answers.slice(0, 150).every(Boolean)).to.equal(true);
      expect(statements)
        .to.be.greaterThan(0)
        .and.below(hashes.length / 10);
    });
  });
});
