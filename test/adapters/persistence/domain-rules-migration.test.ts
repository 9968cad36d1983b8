// The domain-rules migration (SQLite 13, PostgreSQL 8) on a store written before it: the followers already there get
// the key of their actor's host, so that a block made right after the upgrade removes them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openPostgresPersistence } from '../../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { migrate as migratePostgres } from '../../../src/adapters/persistence/postgres/postgres-migrate.js';
import { POSTGRES_MIGRATIONS } from '../../../src/adapters/persistence/postgres/postgres-migrations.js';
import { MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations.js';
import { openSqlitePersistence } from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { migrate } from '../../../src/adapters/persistence/sqlite/sqlite-migrate.js';
import { DEFAULT_STORE_SETTINGS } from '../../../src/adapters/persistence/store-driver.js';
import type { Persistence } from '../../../src/application/ports/persistence.js';
import { parseRuleHost, type RuleHost } from '../../../src/domain/domain-rules.js';
import { T0 } from '../../support/builders.js';
import { passwordDatabase, postgresAvailable } from '../../support/postgres-cluster.js';

const ACTORS = ['https://Social.Example.COM/users/a', 'https://example.org/users/b', 'https://10.0.0.1/u/c'];

const host = (name: string): RuleHost => {
  const parsed = parseRuleHost(name, 'l2.example');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

/** What a block made right after the upgrade removes, and who stays. */
async function blockAfterUpgrade(store: Persistence): Promise<void> {
  await store.ready();
  expect((await store.domainRules.block(host('example.com'), T0)).followersRemoved).to.equal(1);
  expect((await store.domainRules.block(host('10.0.0.1'), T0)).followersRemoved).to.equal(1);
  const left = await store.followers.listOlder({ username: 'alice' as never }, null, 10);
  expect(left.map((e) => e.value.actor)).to.deep.equal(['https://example.org/users/b']);
}

describe('Domain rules migration', () => {
  it('SQLite 13 fills the host key of every follower stored before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2-migration-13-'));
    const path = join(dir, 'l2.sqlite');
    try {
      const old = new Database(path);
      migrate(
        old,
        MIGRATIONS.filter((m) => m.version < 13),
      );
      const insert = old.prepare(
        `INSERT INTO followers (username, actor, inbox, shared_inbox, follow_id, followed_at)
         VALUES ('alice', ?, ?, NULL, NULL, 0)`,
      );
      for (const actor of ACTORS) insert.run(actor, `${actor}/inbox`);
      old.close();
      const store = openSqlitePersistence(path);
      try {
        await blockAfterUpgrade(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL 8 fills the host key of every follower stored before it', async function () {
    if (!postgresAvailable()) this.skip();
    const scratch = await passwordDatabase();
    const store = openPostgresPersistence(scratch.url, { ...DEFAULT_STORE_SETTINGS, poolSize: 2 });
    try {
      await migratePostgres(store.database, POSTGRES_MIGRATIONS, 7);
      for (const actor of ACTORS)
        await store.database.query(
          `INSERT INTO followers (username, actor, inbox, shared_inbox, follow_id, followed_at)
           VALUES ('alice', $1, $2, NULL, NULL, $3)`,
          [actor, `${actor}/inbox`, T0],
        );
      await blockAfterUpgrade(store);
    } finally {
      await store.close();
      await scratch.drop();
    }
  });
});
