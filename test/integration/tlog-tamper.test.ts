// A stored activity changed behind L2's back (an intruder with the database, a bad restore) is found at the next
// start: /readyz answers 503, the metric and an error line say so, and nothing is signed over it — the last good
// checkpoint stays served and writes are refused before anything is stored.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';
import { assetBody } from '../adapters/http/registry/support.js';

describe('a changed stored activity, found at start-up', function () {
  let dir: string;
  let env: Record<string, string>;
  const running: L2Process[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-tamper-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeTestTlogKey(dir);
    env = {
      SECRETS_DIR: dir,
      STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
      BCRYPT_COST: '4',
      PUBLIC_URL: 'http://l2.test',
    };
  });
  afterEach(async () => {
    for (const l2 of running.splice(0)) await l2.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (): Promise<L2Process> => {
    const l2 = await startL2Process(env);
    running.push(l2);
    return l2;
  };

  it('answers /readyz 503, sets the metric, logs why, keeps the last good checkpoint and refuses writes', async () => {
    const first = await start();
    const api = client(first.url);
    const token = await registerUser(first.url, 'alice');
    for (let i = 0; i < 5; i++)
      expect((await api.post('/assets', assetBody(`asset-${i}`), { token })).status).to.equal(201);
    const good = (await api.get('/tlog/checkpoint')).text;
    expect(good).to.match(/^l2\.test\/tlog\n5\n/);
    expect((await api.get('/readyz')).status).to.equal(200);
    expect(await first.stop()).to.equal(0);
    running.splice(0);

    const db = new Database(join(dir, 'l2.sqlite'));
    const changed = db
      .prepare("UPDATE activities SET document = replace(document, 'asset-2', 'asset-X') WHERE idx = 2")
      .run();
    db.close();
    expect(changed.changes).to.equal(1);

    const second = await startL2Process(env);
    running.push(second);
    const line = await second.logged(
      (entry) => typeof entry.msg === 'string' && entry.msg.startsWith('transparency log inconsistent'),
    );
    const api2 = client(second.url);

    expect(line).to.deep.include({ level: 50, origin: 'l2.test/tlog' });
    expect(line.reason).to.match(/^activity 2 is not the entry that was logged/);
    const ready = await api2.get('/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.json).to.deep.include({ code: 'unavailable' });
    expect((await api2.get('/metrics')).text).to.match(/^l2_tlog_inconsistent 1$/m);
    expect((await api2.get('/tlog/checkpoint')).text, 'the last good checkpoint').to.equal(good);

    const refused = await api2.post('/assets', assetBody('after'), { token });
    expect(refused.status).to.equal(503);
    expect(refused.json.code).to.equal('unavailable');
    const listed = await api2.get('/activities', { headers: { accept: 'application/json' } });
    expect(listed.json.total, 'nothing stored').to.equal(5);
    expect((await api2.get('/tlog/checkpoint')).text, 'never signed over').to.equal(good);
  });
});
