// API.md §4.3: "a block takes effect when the command returns, on every instance of the store (no restart)". Two
// L2 processes share one store; `l2 domains block` runs beside them as an operator runs it; the very next Follow
// from the blocked domain to either instance is answered 403, and its follower is gone from both collections.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { FedifyPeer } from '../support/fedify-peer.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';
import { aFollower, anAcceptJob, aUsername } from '../support/builders.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const AP = 'application/activity+json';

describe('a domain block on two L2 instances of one SQLite file', function () {
  let dir: string;
  let env: Record<string, string>;
  let a: L2Process;
  let b: L2Process;
  let peer: FedifyPeer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'l2-block-two-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
    env = {
      STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
      SECRETS_DIR: dir,
      BCRYPT_COST: '4',
      PUBLIC_URL: 'http://l2.test',
      QUEUE_POLL_INTERVAL_MS: '20',
    };
    [a, b] = await Promise.all([startL2Process(env), startL2Process(env)]);
    peer = await FedifyPeer.start();
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await peer?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the very next Follow from the blocked domain at both instances, and both drop its follower', async () => {
    await registerUser(a.url, 'alice');
    // A follower on the peer's host, stored as an accepted Follow stores it.
    const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
    try {
      const follower = aFollower({
        username: aUsername('alice'),
        actor: peer.actorId,
        inbox: `${peer.actorId}/inbox`,
        sharedInbox: null,
      });
      await store.followers.add(follower, anAcceptJob(follower), new Date());
    } finally {
      await store.close();
    }
    const totalAt = async (url: string) =>
      (await client(url).get('/users/alice/followers', { headers: { accept: AP } })).json
        .totalItems as number;
    const followAt = (url: string) =>
      peer.send(`${url}/users/alice/inbox`, peer.follow('http://l2.test/users/alice'), { unsigned: true });
    expect([await totalAt(a.url), await totalAt(b.url)]).to.deep.equal([1, 1]);
    // Before the block the inbox reads the request (and refuses it unsigned): no domain rule answers.
    expect((await followAt(b.url)).status).to.equal(401);

    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', CLI, 'domains', 'block', '127.0.0.1'],
      {
        env: { ...process.env, ...env },
      },
    );
    expect(stdout).to.match(/^blocked 127\.0\.0\.1: 1 follower removed/);

    for (const url of [b.url, a.url]) {
      const refused = await followAt(url);
      expect([refused.status, ((await refused.json()) as { detail: string }).detail]).to.deep.equal([
        403,
        'this server does not federate with yours',
      ]);
    }
    expect([await totalAt(a.url), await totalAt(b.url)]).to.deep.equal([0, 0]);
  });
});
