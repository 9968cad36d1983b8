// L2 started as `npm start` starts it, on a PostgreSQL database of its own role with a password: it migrates the
// empty database, serves, shares nothing it should not — the password is in no log line, no answer and no metric —
// and says in /metrics how its connection pool and its statements fare.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetBody } from '../adapters/http/registry/support.js';
import { dashboardSeries, servedSeries } from '../support/grafana-dashboard.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process } from '../support/l2-process.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { passwordDatabase, postgresAvailable, type PasswordDatabase } from '../support/postgres-cluster.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

describe('L2 on PostgreSQL, started as npm start starts it', function () {
  let dir: string;
  let owned: PasswordDatabase;

  before(async function () {
    if (!postgresAvailable()) this.skip();
    owned = await passwordDatabase();
  });
  after(async () => owned?.drop());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-pg-service-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates an empty database, serves, and shows the password nowhere: logs, answers, metrics', async () => {
    // Two forms of the URL an operator may write: postgresql://, and a multi-host list whose first host is down.
    const unreachable = '127.0.0.1:1';
    const multiHost = owned.url
      .replace('@', `@${unreachable},`)
      .replace(/\?|$/, '?target_session_attrs=read-write');
    let output = '';
    for (const store of [owned.url.replace(/^postgres:/, 'postgresql:'), multiHost]) {
      const l2 = await startL2Process({
        SECRETS_DIR: dir,
        STORE: store,
        BCRYPT_COST: '4',
        LOG_LEVEL: 'trace',
        PUBLIC_URL: 'http://l2.test',
        STORE_POOL_SIZE: '3',
      });
      try {
        const api = client(l2.url);
        await l2.logged((entry) => entry.msg === 'transparency log checked');
        const ready = await api.get('/readyz');
        expect(ready.status, ready.text).to.equal(200);
        const name = store === multiHost ? 'bob' : 'alice';
        const token = await registerUser(l2.url, name);
        expect((await api.post('/auth/verify', { token })).json.valid).to.equal(true);
        expect((await api.post('/assets', assetBody(`first-of-${name}`), { token })).status).to.equal(201);
        expect(
          (await api.post('/auth/login', { username: name, password: 'wrong password!' })).status,
        ).to.equal(401);

        const metrics = (await api.get('/metrics')).text;
        expect(metrics).to.match(/^l2_store_pool_size 3$/m);
        expect(metrics).to.match(
          /^l2_store_operations_seconds_count\{kind="transaction",outcome="ok"\} [1-9]\d*$/m,
        );
        expect(metrics).to.match(
          /^l2_store_operations_seconds_count\{kind="statement",outcome="ok"\} [1-9]\d*$/m,
        );
        expect(metrics).to.match(/^l2_store_pool_busy\{kind="statement"\} \d+$/m);
        const served = servedSeries(metrics);
        const storePanels = dashboardSeries().filter((name) => name.startsWith('l2_store_'));
        expect(storePanels).to.have.length.greaterThan(2);
        for (const name of storePanels) expect(served.has(name), `dashboard: ${name}`).to.equal(true);
        output += metrics;
        output += (await api.get('/activities', { headers: { accept: 'application/json' } })).text;
      } finally {
        expect(await l2.stop()).to.equal(0);
        output += l2.output();
      }
    }

    const listed = await client('http://127.0.0.1:1')
      .get('/')
      .catch(() => null);
    expect(listed).to.equal(null);
    expect(output).to.contain('"msg":"L2 listening"');
    for (const form of [owned.password, encodeURIComponent(owned.password)])
      expect(output).not.to.contain(form);
  });
});
