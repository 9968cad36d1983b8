// `l2 store check`: what an operator runs to know the store is fit to serve — it answers, its schema is this L2's,
// its transparency log matches the stored activities — on every store a command can reach.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { assetBody } from '../adapters/http/registry/support.js';
import { client, registerUser } from '../support/http.js';
import { freshDatabase, passwordDatabase, postgresAvailable } from '../support/postgres-cluster.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { startTestServer, TEST_SECRET } from '../support/test-server.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

async function storeCheck(
  dir: string,
  store: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, 'store', 'check'], {
    env: {
      ...process.env,
      SECRETS_DIR: dir,
      STORE: store,
      PUBLIC_URL: 'http://l2.test',
      LOG_LEVEL: 'silent',
      ...env,
    },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** Writes `count` assets through a server on `store` (its secrets in `dir`), then stops it. */
async function writeAssets(dir: string, store: string, count: number): Promise<void> {
  const server = await startTestServer({ dir, env: { STORE: store } });
  try {
    const token = await registerUser(server.url, 'alice');
    for (let i = 0; i < count; i++)
      expect((await client(server.url).post('/assets', assetBody(`asset-${i}`), { token })).status).to.equal(
        201,
      );
  } finally {
    await server.close();
  }
}

describe('l2 store check', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-check-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeTestTlogKey(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says a SQLite store answers, is migrated and holds a consistent log', async () => {
    const store = `sqlite:${join(dir, 'l2.sqlite')}`;
    await writeAssets(dir, store, 3);

    const { code, stdout } = await storeCheck(dir, store);

    expect(code).to.equal(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).to.equal('reachable: yes');
    expect(lines[1]).to.match(/^migrated: SQLite schema at version \d+/);
    expect(lines[2]).to.equal(
      'transparency log: consistent, 3 entries, checkpoint of 3 signed by l2.test/tlog',
    );
  });

  it('fails, naming the activity, when a stored activity was changed behind its back', async () => {
    const store = `sqlite:${join(dir, 'l2.sqlite')}`;
    await writeAssets(dir, store, 3);
    const db = new Database(join(dir, 'l2.sqlite'));
    db.prepare(
      "UPDATE activities SET document = replace(document, 'asset-1', 'asset-X') WHERE idx = 1",
    ).run();
    db.close();

    const { code, stderr } = await storeCheck(dir, store);

    expect(code).to.equal(1);
    expect(stderr.trim()).to.match(
      /^l2: the transparency log is inconsistent: activity 1 is not the entry that was logged/,
    );
  });

  describe('on PostgreSQL', function () {
    before(function () {
      if (!postgresAvailable()) this.skip();
    });

    it('says a PostgreSQL store answers, is migrated and holds a consistent log; a changed activity fails it', async () => {
      const scratch = await freshDatabase();
      try {
        await writeAssets(dir, scratch.url, 2);

        const good = await storeCheck(dir, scratch.url);
        expect(good.code, good.stderr).to.equal(0);
        const lines = good.stdout.trim().split('\n');
        expect(lines[0]).to.equal('reachable: yes');
        expect(lines[1]).to.match(
          /^migrated: PostgreSQL schema at version \d+ .* on 127\.0\.0\.1:\d+\/l2_test_/,
        );
        expect(lines[2]).to.equal(
          'transparency log: consistent, 2 entries, checkpoint of 2 signed by l2.test/tlog',
        );

        const db = openPostgresPersistence(scratch.url).database;
        await db.query(
          "UPDATE activities SET document = replace(document, 'asset-0', 'asset-X') WHERE idx = 0",
        );
        await db.close();
        const bad = await storeCheck(dir, scratch.url);
        expect(bad.code).to.equal(1);
        expect(bad.stderr.trim()).to.match(/^l2: the transparency log is inconsistent: activity 0 is not/);
      } finally {
        await scratch.drop();
      }
    });

    it('fails in one line that names the server, never the password, when PostgreSQL refuses or is not there', async () => {
      const owned = await passwordDatabase();
      try {
        const wrong = owned.url.replace(encodeURIComponent(owned.password), 'not-the-password-9f3a');
        // The password may also come from PGPASSWORD, the URL then holding none.
        const fromEnvironment = await storeCheck(
          dir,
          owned.url.replace(`:${encodeURIComponent(owned.password)}@`, '@'),
          {
            PGPASSWORD: owned.password,
          },
        );
        expect(fromEnvironment.code, fromEnvironment.stderr).to.equal(0);

        const refused = await storeCheck(dir, wrong);
        expect(refused.code).to.equal(1);
        expect(refused.stderr.trim()).to.match(
          /^l2: cannot reach PostgreSQL at 127\.0\.0\.1:\d+\/l2_owned_\w+: password authentication failed/,
        );
        expect(refused.stderr).not.to.contain('not-the-password-9f3a');

        const absent = await storeCheck(
          dir,
          `postgres://l2:${encodeURIComponent(owned.password)}@127.0.0.1:1/l2`,
        );
        expect(absent.code).to.equal(1);
        expect(absent.stderr.trim()).to.match(
          /^l2: cannot reach PostgreSQL at 127\.0\.0\.1:1\/l2: .*ECONNREFUSED/,
        );
        for (const form of [owned.password, encodeURIComponent(owned.password)])
          expect(absent.stderr).not.to.contain(form);
      } finally {
        await owned.drop();
      }
    });
  });
});
