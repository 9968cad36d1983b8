import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openPostgresPersistence } from '../../src/adapters/persistence/postgres/open-postgres-persistence.js';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process, type L2Process } from '../support/l2-process.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { passwordDatabase, postgresAvailable } from '../support/postgres-cluster.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A store two processes share, and how the test reads its queue behind L2's back. */
interface SharedStore {
  readonly url: string;
  /** Jobs waiting in the queue now. */
  pendingJobs(): Promise<number>;
  close(): Promise<void>;
}

const STORES: { name: string; available(): boolean; open(dir: string): Promise<SharedStore> }[] = [
  {
    name: 'one SQLite file (WAL)',
    available: () => true,
    open: async (dir) => {
      return {
        url: `sqlite:${join(dir, 'l2.sqlite')}`,
        pendingJobs: async () => {
          const reader = new Database(join(dir, 'l2.sqlite'), { readonly: true });
          try {
            return (
              reader.prepare("SELECT COUNT(*) AS n FROM jobs WHERE state = 'pending'").get() as { n: number }
            ).n;
          } finally {
            reader.close();
          }
        },
        close: async () => undefined,
      };
    },
  },
  {
    name: 'one PostgreSQL database',
    available: () => postgresAvailable(),
    open: async () => {
      const scratch = await passwordDatabase(); // empty: the two instances migrate it
      const reader = openPostgresPersistence(scratch.url).database;
      return {
        url: scratch.url,
        pendingJobs: async () =>
          (
            await reader.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE state = 'pending'")
          )[0]!.n,
        close: async () => {
          await reader.close();
          await scratch.drop();
        },
      };
    },
  },
];

for (const kind of STORES)
  /** Two L2 processes on one store, as two instances behind a load balancer would share it. */
  describe(`two L2 instances on ${kind.name}`, function () {
    let dir: string;
    let a: L2Process;
    let b: L2Process;
    let l1: FakeL1Server;
    let store: SharedStore;

    before(async function () {
      if (!kind.available()) this.skip();
      dir = mkdtempSync(join(tmpdir(), 'l2-two-'));
      writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
      writeNoticeKey(dir);
      writeIdTokenKey(dir);
      writeTestTlogKey(dir);
      store = await kind.open(dir);
      l1 = await new FakeL1Server().start();
      const env = {
        STORE: store.url,
        SECRETS_DIR: dir,
        BCRYPT_COST: '4',
        PUBLIC_URL: 'http://l2.test',
        QUEUE_POLL_INTERVAL_MS: '20',
        NOTICE_RETRY_FIRST_DELAY_MS: '50',
        LOGIN_MAX_FAILURES_PER_USERNAME: '4',
      };
      // Started together: the first start of a store migrates it, under a lock the other waits for.
      [a, b] = await Promise.all([startL2Process(env), startL2Process(env)]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await l1?.stop();
      await store?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('verifies at each instance the tokens the other issued', async () => {
      const atA = await registerUser(a.url, 'erin');
      const atB = await registerUser(b.url, 'frank');
      expect((await client(b.url).post('/auth/verify', { token: atA })).json.valid).to.equal(true);
      expect((await client(a.url).post('/auth/verify', { token: atB })).json.valid).to.equal(true);
    });

    it('shares the login budget: failures at either instance count towards one limit', async () => {
      await registerUser(a.url, 'grace');
      const attempt = (url: string) =>
        client(url).post('/auth/login', { username: 'grace', password: 'not the password at all' });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt(i % 2 === 0 ? a.url : b.url)).status);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 429]);
      expect((await attempt(b.url)).status, 'the other instance too').to.equal(429);
    });

    it('fails verification at instance B at once for a token revoked through instance A', async () => {
      const session = await registerUser(a.url, 'alice');
      expect((await client(b.url).post('/auth/verify', { token: session })).status).to.equal(200);
      expect((await client(a.url).post('/auth/logout', undefined, { token: session })).json).to.deep.equal({
        revoked: 1,
      });
      const atB = await client(b.url).post('/auth/verify', { token: session });
      expect(atB.status).to.equal(401);
      expect(atB.json.code).to.equal('token_revoked');
    });

    it('gives 100 assets published alternately through A and B gap-free, unique activity indices', async () => {
      const token = await registerUser(b.url, 'bob');
      const before = (
        await client(a.url).get('/activities?limit=1', { headers: { accept: 'application/json' } })
      ).json.total as number;
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          client(i % 2 === 0 ? a.url : b.url).post(
            '/assets',
            { name: `asset-${i}`, content_hash: `sha256:${sha256(String(i))}`, media_type: 'image/png' },
            { token },
          ),
        ),
      );
      expect(results.map((r) => r.status)).to.deep.equal(Array(100).fill(201));
      const indices = results.map((r) => r.json.activity.idx as number).sort((x, y) => x - y);
      expect(indices).to.deep.equal(Array.from({ length: 100 }, (_, i) => before + i));
      const listed = await client(b.url).get('/activities?limit=100', {
        headers: { accept: 'application/json' },
      });
      expect(listed.json.total).to.equal(before + 100);
    });

    it('keeps both of two concurrent edits made through A and B (no lost update)', async () => {
      const token = await registerUser(a.url, 'dave');
      const created = await client(a.url).post(
        '/assets',
        { name: 'contested', content_hash: `sha256:${sha256('contested')}`, media_type: 'image/png' },
        { token },
      );
      expect(created.status).to.equal(201);
      for (let round = 0; round < 10; round++) {
        const [viaA, viaB] = await Promise.all([
          client(a.url).send('PATCH', '/assets/contested', { description: `round ${round}` }, { token }),
          client(b.url).send('PATCH', '/assets/contested', { tags: [`r${round}`] }, { token }),
        ]);
        expect([viaA.status, viaB.status]).to.deep.equal([200, 200]);
        const asset = (
          await client(a.url).get('/assets/contested', { headers: { accept: 'application/json' } })
        ).json;
        expect({ description: asset.description, tags: asset.tags }, `round ${round}`).to.deep.equal({
          description: `round ${round}`,
          tags: [`r${round}`],
        });
      }
    });

    it('sends a notice queued by A exactly once, with both instances working the queue', async () => {
      l1.noticeDelayMs = 300; // a slow L1: a second worker holding the same job would deliver it meanwhile
      const session = await registerUser(a.url, 'carol');
      const scoped: string[] = [];
      // Five tokens for one L1 server (the most one user may hold for it), attached through both instances.
      for (let i = 0; i < 5; i++) {
        const attached = await client(i % 2 === 0 ? a.url : b.url).post(
          '/renderers/attach',
          { l1_server: l1.url },
          { token: session },
        );
        scoped.push(attached.json.access_token as string);
      }
      const already = l1.notices.length;
      expect((await client(a.url).post('/auth/logout', undefined, { token: session })).json).to.deep.equal({
        revoked: 6,
      });
      await l1.waitForNotices(already + 5);

      // Wait until the queue is empty: once a job is completed and gone, no worker can send it again.
      for (const deadline = Date.now() + 10_000; (await store.pendingJobs()) > 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.pendingJobs()).to.equal(0);
      const received = l1.notices.slice(already).map((n) => n.body.token_hash);
      expect(received).to.have.length(5);
      expect([...received].sort()).to.deep.equal(scoped.map(sha256).sort());
    });
  });
