// While a service checks its transparency log at start-up (every stored entry read), it is not ready: /readyz
// answers 503, writes wait for the check and are answered covered once it is done, reads are served.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519KeyPairFromPkcs8Pem, nodeSha256, verifyEd25519 } from '@l2/tlog/node-crypto';
import { appendActivities } from '../../contract/transparency-log.contract.js';
import { client, registerUser } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { TEST_TLOG_KEY_PEM, TEST_TLOG_ORIGIN } from '../../support/tlog-test-key.js';
import { assetBody, expectProblem } from './registry/support.js';

describe('the transparency log while it is checked at start-up (sqlite)', function () {
  let dir: string;
  let server: TestServer | undefined;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'l2-tlog-start-'))));
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /readyz 503, holds writes until it is done, then answers them covered', async () => {
    const first = await startTestServer({ store: 'sqlite', dir });
    const token = await registerUser(first.url, 'alice');
    await appendActivities(first.parts.store, 600);
    await first.parts.services.transparencyLog.cover(600);
    await first.close();

    // The check pauses between its batches of entries; this one waits until the test lets it go on.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let paused = () => {};
    const pausing = new Promise<void>((resolve) => (paused = resolve));
    server = await startTestServer({
      store: 'sqlite',
      dir,
      override: {
        transparency: (p) => ({
          settings: {
            origin: TEST_TLOG_ORIGIN,
            key: ed25519KeyPairFromPkcs8Pem(TEST_TLOG_KEY_PEM),
            crypto: nodeSha256,
            verifyEd25519,
            pause: () => {
              paused();
              return held;
            },
          },
          observer: p.metrics,
          problems: p.logger,
        }),
      },
    });
    await pausing;
    const api = client(server.url);

    const ready = await api.get('/readyz');
    expectProblem(ready, 503, 'unavailable');
    expect(ready.headers.get('retry-after')).to.equal('5');
    const checkpoint = await api.get('/tlog/checkpoint');
    expect(checkpoint.text.split('\n').slice(0, 2), 'the last checkpoint is served').to.deep.equal([
      TEST_TLOG_ORIGIN,
      '600',
    ]);
    let answered = false;
    const write = api.post('/assets', assetBody('during-the-check'), { token }).then((response) => {
      answered = true;
      return response;
    });
    // The write has been appended (or is being), but is not answered before the check is over.
    for (let i = 0; i < 20 && (await server.parts.store.activities.nextIdx()) < 601; i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(answered).to.equal(false);

    release();
    const response = await write;
    expect(response.status, response.text).to.equal(201);
    expect(response.json.activity.idx).to.equal(600);
    expect((await api.get('/tlog/checkpoint')).text.split('\n')[1]).to.equal('601');
    expect((await api.get('/readyz')).status).to.equal(200);
  });
});
