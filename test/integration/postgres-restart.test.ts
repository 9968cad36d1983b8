// PostgreSQL stopped and started again under L2's feet, under load: while it is down every request that needs the
// store answers 503 unavailable with Retry-After — never 500, never `valid: true` for a revoked token — /readyz
// answers 503 and /healthz 200; once it is back L2 serves again by itself, without a restart, and nothing
// acknowledged before is lost.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetBody } from '../adapters/http/registry/support.js';
import { client, registerUser, type HttpResponse } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { PostgresNode, postgresAvailable } from '../support/postgres-cluster.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

/** Polls `url` until it answers `status`, for at most `ms`; the last status seen. */
async function waitForStatus(url: string, status: number, ms: number): Promise<number> {
  let seen = 0;
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    seen = (await client(url).get('/readyz')).status;
    if (seen === status) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen;
}

/** Waits until `done()` holds, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('PostgreSQL restarted under load', function () {
  let dir: string;
  let node: PostgresNode;
  let l2: L2Process;

  before(async function () {
    if (!postgresAvailable()) this.skip();
    // A server of its own: this test stops it.
    node = await PostgresNode.primary();
    dir = mkdtempSync(join(tmpdir(), 'l2-pg-restart-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
    l2 = await startL2Process({
      STORE: node.url('postgres'),
      SECRETS_DIR: dir,
      BCRYPT_COST: '4',
      PUBLIC_URL: 'http://l2.test',
      STORE_CONNECT_TIMEOUT_SECONDS: '2',
    });
  });
  afterEach(function () {
    // A process that ended under the test says why (its last lines).
    if (this.currentTest?.state === 'failed' && l2?.child.exitCode !== null)
      console.log(l2.output().split('\n').slice(-15).join('\n'));
  });
  after(async () => {
    await l2?.stop();
    await node?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is down, never 500 nor valid for a revoked token, and recovers by itself', async () => {
    const api = client(l2.url);
    const live = await registerUser(l2.url, 'alice');
    const revoked = await registerUser(l2.url, 'bob');
    expect((await api.post('/auth/logout', undefined, { token: revoked })).status).to.equal(200);
    let written = 0;
    const acknowledged: string[] = [];
    const answers: { what: string; response: HttpResponse }[] = [];
    let loading = true;
    // Load: verifications of both tokens and asset writes, one after another per loop, until told to stop.
    const load = async (loop: number) => {
      while (loading) {
        const name = `asset-${loop}-${written++}`;
        const [verifyLive, verifyRevoked, write] = await Promise.all([
          api.post('/auth/verify', { token: live }),
          api.post('/auth/verify', { token: revoked }),
          api.post('/assets', assetBody(name), { token: live }),
        ]);
        answers.push(
          { what: 'verify live', response: verifyLive },
          { what: 'verify revoked', response: verifyRevoked },
          { what: `write ${name}`, response: write },
        );
        if (write.status === 201) acknowledged.push(name);
      }
    };
    const loops = [0, 1, 2].map(load);

    // Stopped once the load has writes acknowledged, so that there is something to lose.
    await until(() => acknowledged.length >= 3, 20_000);
    const beforeOutage = acknowledged.length;
    await node.stop('fast');
    const atOutage = answers.length;
    expect(await waitForStatus(l2.url, 503, 10_000), '/readyz while PostgreSQL is down').to.equal(503);
    const down = await api.post('/auth/verify', { token: live });
    expect(down.status).to.equal(503);
    expect(down.json.code).to.equal('unavailable');
    expect(down.headers.get('retry-after')).to.match(/^\d+$/);
    expect((await api.get('/healthz')).status, 'the process itself lives').to.equal(200);
    const duringOutage = answers.length;

    await node.start();
    expect(await waitForStatus(l2.url, 200, 30_000), '/readyz once PostgreSQL is back').to.equal(200);
    await until(() => acknowledged.length > beforeOutage + 3, 20_000);
    loading = false;
    await Promise.all(loops);

    expect(duringOutage, 'the load was answered while PostgreSQL was down').to.be.greaterThan(atOutage);
    for (const { what, response } of answers) {
      expect(response.status, `${what}: ${response.text}`).to.be.oneOf([200, 201, 401, 503]);
      if (response.status === 503) expect(response.headers.get('retry-after'), what).to.match(/^\d+$/);
      if (what === 'verify revoked') expect(response.json?.valid, what).not.to.equal(true);
    }
    expect(
      answers.filter((a) => a.response.status === 503).length,
      'some answers were 503',
    ).to.be.greaterThan(0);
    expect((await api.post('/auth/verify', { token: live })).json.valid).to.equal(true);
    expect((await api.post('/auth/verify', { token: revoked })).status).to.equal(401);
    expect((await api.post('/assets', assetBody('after-the-restart'), { token: live })).status).to.equal(201);
    for (const name of acknowledged)
      expect(
        (await api.get(`/assets/${name}`, { headers: { accept: 'application/json' } })).status,
        name,
      ).to.equal(200);
    expect(acknowledged.length, 'writes acknowledged after the restart too').to.be.greaterThan(
      beforeOutage + 3,
    );
  });
});
