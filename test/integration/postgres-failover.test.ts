// A failover under load: L2 on a primary with a synchronous streaming standby, reached through a multi-host URL
// with target_session_attrs=read-write. The primary stops, the standby is promoted: writes answer 503 meanwhile,
// resume within 30 s without restarting L2, every write acknowledged before is there after, and the transparency
// log's next checkpoint is consistent with the last one signed on the old primary.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openCheckpoint,
  parseVerifierKey,
  proveConsistency,
  rangeHashReader,
  treeHash,
  verifyConsistency,
} from '@l2/tlog';
import { nodeSha256 as crypto, verifyEd25519 } from '@l2/tlog/node-crypto';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { assetBody } from '../adapters/http/registry/support.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { PostgresNode, postgresAvailable } from '../support/postgres-cluster.js';
import { TEST_SECRET } from '../support/test-server.js';
import { testVerifierKey, writeTestTlogKey } from '../support/tlog-test-key.js';

/** Waits until `done()` holds, for at most `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; !done() && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The size and root of a checkpoint note, checked against the test key. */
function opened(note: string): { size: number; rootHash: Uint8Array } {
  const key = parseVerifierKey(crypto, testVerifierKey());
  if (!key.ok) throw new Error('the test key does not parse');
  const checkpoint = openCheckpoint(note, key.value, verifyEd25519);
  if (!checkpoint.ok) throw new Error(`a checkpoint that does not open: ${note}`);
  return checkpoint.value.checkpoint;
}

describe('PostgreSQL failover to a promoted synchronous standby', function () {
  let dir: string;
  let primary: PostgresNode;
  let standby: PostgresNode;
  let l2: L2Process;

  before(async function () {
    if (!postgresAvailable()) this.skip();
    primary = await PostgresNode.primary({ hot_standby: 'on' });
    standby = await PostgresNode.standbyOf(primary, 's1');
    // Synchronous from now on: a commit is acknowledged once the standby has it.
    const admin = openPostgresPersistence(primary.url()).database;
    await admin.query("ALTER SYSTEM SET synchronous_standby_names = 's1'");
    await admin.query('SELECT pg_reload_conf()');
    await admin.close();
    dir = mkdtempSync(join(tmpdir(), 'l2-pg-failover-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeTestTlogKey(dir);
    const hosts = `127.0.0.1:${primary.port},127.0.0.1:${standby.port}`;
    l2 = await startL2Process({
      STORE: `postgres://l2@${hosts}/postgres?target_session_attrs=read-write`,
      SECRETS_DIR: dir,
      BCRYPT_COST: '4',
      PUBLIC_URL: 'http://l2.test',
      STORE_CONNECT_TIMEOUT_SECONDS: '2',
    });
  });
  after(async () => {
    await l2?.stop();
    await standby?.destroy();
    await primary?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resumes writes within 30 s, loses no acknowledged write, and signs a checkpoint consistent with the last', async () => {
    const api = client(l2.url);
    const token = await registerUser(l2.url, 'alice');
    const acknowledged: string[] = [];
    const statuses: number[] = [];
    let writing = true;
    let n = 0;
    const writer = async () => {
      while (writing) {
        const name = `asset-${n++}`;
        const response = await api.post('/assets', assetBody(name), { token });
        statuses.push(response.status);
        if (response.status === 201) acknowledged.push(name);
        else if (response.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const writers = [writer(), writer()];
    await until(() => acknowledged.length >= 10, 30_000);
    const before = acknowledged.length;
    const lastBefore = (await api.get('/tlog/checkpoint')).text;

    await primary.stop('immediate');
    const stopped = Date.now();
    await standby.promote();
    await until(() => acknowledged.length > before + 5, 30_000);
    const resumedAfterMs = Date.now() - stopped;
    writing = false;
    await Promise.all(writers);
    console.log(
      `      writes resumed ${resumedAfterMs} ms after the primary stopped; ` +
        `${statuses.filter((s) => s === 503).length} answered 503 meanwhile`,
    );

    expect(acknowledged.length, 'writes acknowledged after the promotion').to.be.greaterThan(before + 5);
    expect(resumedAfterMs, 'writes resumed within 30 s').to.be.lessThan(30_000);
    expect(
      statuses.filter((s) => s !== 201 && s !== 503),
      'no answer but 201 or 503',
    ).to.deep.equal([]);
    for (const name of acknowledged)
      expect(
        (await api.get(`/assets/${name}`, { headers: { accept: 'application/json' } })).status,
        name,
      ).to.equal(200);
    expect((await api.get('/readyz')).status, 'the log matches the promoted store').to.equal(200);

    const last = opened(lastBefore);
    const next = opened((await api.get('/tlog/checkpoint')).text);
    expect(next.size).to.be.greaterThan(last.size);
    const store = openPostgresPersistence(standby.url());
    try {
      const reader = rangeHashReader((level, first, count) =>
        store.transparencyLog.hashes(level, first, count),
      );
      expect(
        await treeHash(crypto, reader, last.size),
        'the old root, from the promoted store',
      ).to.deep.equal(last.rootHash);
      const proof = await proveConsistency(crypto, reader, last.size, next.size);
      expect(verifyConsistency(crypto, last.size, next.size, proof, last.rootHash, next.rootHash)).to.equal(
        true,
      );
    } finally {
      await store.close();
    }
  });
});
