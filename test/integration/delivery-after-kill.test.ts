// A delivery in flight when the process is killed (SIGKILL: no shutdown, the job stays claimed) reaches the follower
// after a restart, once its lease has run out — signed as any other, verified by a real Fedify peer.
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FedifyPeer } from '../support/fedify-peer.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { TEST_SECRET } from '../support/test-server.js';
import { createAsset } from '../adapters/http/registry/support.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const LEASE_SECONDS = 15;

/** A port nobody listens on now, so that PUBLIC_URL can name it before the process starts (and again after). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a delivery in flight when the process is killed', function () {
  let dir: string;
  let l2: L2Process | undefined;
  let peer: FedifyPeer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'l2-kill-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeTestTlogKey(dir);
    peer = await FedifyPeer.start();
  });
  afterEach(async () => {
    await l2?.stop();
    await peer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the follower after a restart, once the lease of the killed process has run out', async () => {
    const port = await freePort();
    const env = {
      STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
      SECRETS_DIR: dir,
      BCRYPT_COST: '4',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      QUEUE_POLL_INTERVAL_MS: '50',
      DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
    };
    l2 = await startL2Process(env);
    const alice = await registerUser(l2.url, 'alice');
    const aliceActor = `${l2.url}/users/alice`;
    expect((await peer.send(`${l2.url}/inbox`, peer.follow(aliceActor))).status).to.equal(202);
    await peer.waitFor((r) => r.body.type === 'Accept');

    // The Create is being delivered — the peer holds the request open — when the process dies.
    peer.answer = 'hang';
    const attempts = peer.attempts;
    const created = await createAsset(client(l2.url), alice, 'sunset');
    await peer.waitForAttempts(attempts + 1);
    l2.child.kill('SIGKILL');
    await once(l2.child, 'exit');

    peer.answer = 202;
    const restartedAt = Date.now();
    l2 = await startL2Process(env);

    const delivered = await peer.waitFor((r) => r.body.type === 'Create', (LEASE_SECONDS + 30) * 1000);
    expect(delivered.body.id).to.equal(created.activity.id);
    expect(delivered.httpSignedBy).to.equal(`${aliceActor}#main-key`);
    expect(delivered.ldVerified).to.equal(true);
    // Not before the lease ran out: until then the job belonged to the killed process.
    expect(Date.now() - restartedAt).to.be.greaterThan((LEASE_SECONDS - 5) * 1000);
  });
});
