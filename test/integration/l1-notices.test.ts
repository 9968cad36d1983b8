import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { client, registerUser } from '../support/http.js';
import { startL2Process } from '../support/l2-process.js';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/test-server.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const payloadOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };

async function attach(l2: string, session: string, l1: string): Promise<string> {
  const response = await client(l2).post('/renderers/attach', { l1_server: l1 }, { token: session });
  expect(response.status).to.equal(201);
  return response.json.access_token as string;
}

for (const store of ['memory', 'sqlite'] as const) {
  describe(`revocation notices to a real L1 server (${store})`, () => {
    let l2: TestServer;
    let l1: FakeL1Server;

    beforeEach(async () => {
      l1 = await new FakeL1Server().start();
      l2 = await startTestServer({ store });
    });
    afterEach(async () => {
      await l2.close();
      await l1.stop();
    });

    it('delivers the notice only after /auth/verify already answers token_revoked', async () => {
      const session = await registerUser(l2.url, 'alice');
      const scoped = await attach(l2.url, session, l1.url);
      l1.onNotice = async () => {
        const verdict = await client(l2.url).post('/auth/verify', { token: scoped, l1_server: l1.url });
        return { status: verdict.status, code: verdict.json.code as string };
      };

      expect((await client(l2.url).post('/auth/logout', undefined, { token: session })).json).to.deep.equal({
        revoked: 2,
      });
      await l1.waitForNotices(1);

      expect(l1.notices).to.have.length(1);
      const [notice] = l1.notices;
      expect(notice!.verifyStatusDuringNotice).to.equal(401);
      expect(notice!.verifyCodeDuringNotice).to.equal('token_revoked');
      expect(notice!.headers['content-type']).to.equal('application/json');
      // The fields every L1 server reads stay as they were; the signed logout token comes beside them (§2.4).
      const { logout_token: logoutToken, ...legacy } = notice!.body;
      expect(legacy).to.deep.equal({
        token_hash: sha256(scoped),
        username: 'alice',
        l2_server: l2.config.publicUrl,
        expires_at: new Date(payloadOf(scoped).exp * 1000).toISOString(),
      });
      expect(logoutToken)
        .to.be.a('string')
        .and.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    });

    it("delivers one user's notice while another user's 32 notices hang at a dead host (one request there at a time)", async () => {
      // A host that reads every notice and never answers.
      let received = 0;
      let open = 0;
      let mostOpen = 0;
      let closedUnanswered = 0;
      let firstArrived: () => void = () => {};
      const firstHang = new Promise<void>((resolve) => (firstArrived = resolve));
      const hanging = createServer((req) => {
        received++;
        firstArrived();
        mostOpen = Math.max(mostOpen, ++open);
        req.resume();
        req.socket.once('close', () => {
          open--;
          closedUnanswered++;
        });
      });
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      try {
        const mallory = await registerUser(l2.url, 'mallory');
        for (let i = 0; i < 32; i++) await attach(l2.url, mallory, hangingUrl);
        const alice = await registerUser(l2.url, 'alice');
        const scoped = await attach(l2.url, alice, l1.url);

        expect(
          (await client(l2.url).post('/auth/logout', { everywhere: true }, { token: mallory })).json,
        ).to.deep.equal({
          revoked: 1 + 5, // the session and the 5 live tokens: attaching beyond 5 revoked the oldest (notices too)
        });
        await firstHang;
        expect(
          (await client(l2.url).post('/auth/logout', undefined, { token: alice })).json.revoked,
        ).to.equal(2);
        await l1.waitForNotices(1);

        expect(l1.notices.map((notice) => notice.body.token_hash)).to.deep.equal([sha256(scoped)]);
        // Alice's notice did not wait for any of Mallory's to time out, and the dead host never had two at once.
        expect(closedUnanswered).to.equal(0);
        expect(received).to.be.at.least(1);
        expect(mostOpen).to.equal(1);
      } finally {
        hanging.closeAllConnections();
        await new Promise((resolve) => hanging.close(resolve));
      }
    });

    it('retries a notice answered with 500 until the L1 server accepts it', async () => {
      const session = await registerUser(l2.url, 'alice');
      const scoped = await attach(l2.url, session, l1.url);
      l1.noticeStatuses = [500, 503];

      await client(l2.url).post('/auth/logout', undefined, { token: session });
      await l1.waitForNotices(3);

      expect(l1.notices.map((n) => n.body.token_hash)).to.deep.equal(Array(3).fill(sha256(scoped)));
      expect(l1.notices).to.have.length(3);
    });

    it('notifies the L1 server of every scoped token a detach revokes', async () => {
      const session = await registerUser(l2.url, 'alice');
      const first = await attach(l2.url, session, l1.url);
      const second = await attach(l2.url, session, `${l1.url}/`);
      const detached = await client(l2.url).post(
        '/renderers/detach',
        { l1_server: l1.url },
        { token: session },
      );
      expect(detached.json).to.deep.equal({ revoked: 2 });
      await l1.waitForNotices(2);
      expect(l1.notices.map((n) => n.body.token_hash).sort()).to.deep.equal(
        [sha256(first), sha256(second)].sort(),
      );
    });

    it('answers logout at once while the L1 server is down, and the token is already revoked', async () => {
      await l1.stop();
      const session = await registerUser(l2.url, 'alice');
      const scoped = await attach(l2.url, session, l1.url);
      const logout = await client(l2.url).post('/auth/logout', undefined, { token: session });
      expect(logout.status).to.equal(200);
      const verdict = await client(l2.url).post('/auth/verify', { token: scoped, l1_server: l1.url });
      expect(verdict.json.code).to.equal('token_revoked');
    });
  });
}

describe('a notice queued while the L1 server is down, across an L2 restart (separate processes, one SQLite file)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-restart-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is delivered by the restarted process', async function () {
    const env = {
      STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
      SECRETS_DIR: dir,
      BCRYPT_COST: '4',
      QUEUE_POLL_INTERVAL_MS: '50',
      NOTICE_RETRY_FIRST_DELAY_MS: '100',
    };
    // Reserve a port for the L1 server, then take it down.
    const l1 = await new FakeL1Server().start();
    const l1Url = l1.url;
    const l1Port = Number(new URL(l1Url).port);
    await l1.stop();

    const first = await startL2Process(env);
    const session = await registerUser(first.url, 'alice');
    const scoped = await attach(first.url, session, l1Url);
    expect((await client(first.url).post('/auth/logout', undefined, { token: session })).status).to.equal(
      200,
    );

    // Wait until the first process has tried and failed at least once: the notice is now waiting for a retry.
    const db = new Database(join(dir, 'l2.sqlite'), { readonly: true });
    try {
      const attempts = () =>
        (db.prepare('SELECT MAX(attempts) AS n FROM jobs').get() as { n: number | null }).n ?? 0;
      // Polled until it happens (within 10 s): the process loads its HTTP client on its first outbound request.
      for (const deadline = Date.now() + 10_000; attempts() < 1 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(attempts()).to.be.at.least(1);
    } finally {
      db.close();
    }
    expect(await first.stop()).to.equal(0);

    await l1.start(l1Port);
    const second = await startL2Process(env);
    try {
      await l1.waitForNotices(1);
      expect(l1.notices[0]!.body.token_hash).to.equal(sha256(scoped));
      const verdict = await client(second.url).post('/auth/verify', { token: scoped, l1_server: l1Url });
      expect(verdict.json.code).to.equal('token_revoked');
    } finally {
      await second.stop();
      await l1.stop();
    }
  });
});
