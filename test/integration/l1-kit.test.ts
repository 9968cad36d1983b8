// The L1 kit (packages/l1-kit) against a real L2 (issue 26, "Kit tests"): revoked tokens fail at once, the cache
// never outlives a notice (or its TTL), forged notices are refused with L2's real keys in play, L2 unavailable means
// 503 and no handler, and concurrent verifications of one token share one request.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  importPKCS8,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import * as forExpress from '../../packages/l1-kit/src/adapters/express.js';
import * as forNode from '../../packages/l1-kit/src/adapters/node.js';
import {
  createL1Kit,
  TokenError,
  type L1Kit,
  type L1KitOptions,
  type LogoutNotice,
} from '../../packages/l1-kit/src/index.js';
import type { RevocationStore } from '../../src/application/ports/revocation-store.js';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { client, registerUser } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import express from 'express';

const PASSWORD = 'correct horse battery';

/** A real L1 server around the kit: its notice route, and one protected route whose handler counts its calls. */
class KitServer {
  url = '';
  handled = 0;
  readonly notices: LogoutNotice[] = [];
  private server: Server | undefined;
  private waiting: { count: number; resolve: () => void }[] = [];

  /** Resolves once the hook has been called `count` times. */
  noticesHandled(count: number): Promise<void> {
    if (this.notices.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  private handledNotice(notice: LogoutNotice): void {
    this.notices.push(notice);
    for (const waiter of this.waiting.filter((w) => this.notices.length >= w.count)) waiter.resolve();
  }

  async start(kit: (self: string) => L1Kit): Promise<this> {
    let handle: (req: Parameters<Server['emit']>[1], res: never) => void = () => {};
    this.server = createServer((req, res) => handle(req as never, res as never));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const made = kit(this.url);
    const routes = forNode.routes(made, { onLogout: (notice) => this.handledNotice(notice) });
    const me = forNode.protect(made, (_req, res, { user }) => {
      this.handled++;
      res.end(JSON.stringify(user));
    });
    handle = (req, res) =>
      void routes(req as never, res).then((done) => {
        if (!done) void me(req as never, res);
      });
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

for (const store of ['memory', 'sqlite'] as const) {
  describe(`the L1 kit against a real L2 (${store})`, () => {
    let l2: TestServer;
    let session: string;
    /** Requests the kits made to L2's /auth/verify. */
    let verifyRequests: number;
    let revocationsDown: boolean;
    const servers: { stop(): Promise<unknown> }[] = [];

    /** A kit whose requests to L2 are counted. */
    const kitFor = (self: string, options: Partial<L1KitOptions> = {}) =>
      createL1Kit({
        l2: l2.url,
        self,
        fetch: (url, init) => {
          if (String(url).endsWith('/auth/verify')) verifyRequests++;
          return fetch(url, init);
        },
        ...options,
      });
    const attach = async (l1: string) =>
      (await client(l2.url).post('/renderers/attach', { l1_server: l1 }, { token: session })).json
        .access_token as string;
    const logout = () => client(l2.url).post('/auth/logout', {}, { token: session });

    beforeEach(async () => {
      verifyRequests = 0;
      revocationsDown = false;
      l2 = await startTestServer({
        store,
        publicUrlIsServer: true,
        // The revocation records can be made unreadable mid-test, as a failing disk would.
        override: {
          store: (p) => {
            const real = p.openedStore.persistence;
            const revocations: RevocationStore = {
              revoke: (...args) => real.revocations.revoke(...args),
              deleteExpired: (...args) => real.revocations.deleteExpired(...args),
              isRevoked: async (hash) => {
                if (revocationsDown) throw new Error('disk gone');
                return real.revocations.isRevoked(hash);
              },
            };
            return { ...real, revocations };
          },
        },
      });
      session = await registerUser(l2.url, 'alice', PASSWORD);
    });
    afterEach(async () => {
      for (const server of servers.splice(0)) await server.stop();
      await l2.close();
    });

    it('without a cache, a token revoked at L2 fails at the very next verification', async () => {
      const l1 = 'http://127.0.0.1:9'; // nothing listens: whatever becomes of the notice, verify decides
      const kit = kitFor(l1);
      const token = await attach(l1);
      expect((await kit.verify(token)).username).to.equal('alice');
      await logout();
      const refused = await kit.verify(token).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(TokenError);
      expect((refused as TokenError).code).to.equal('token_revoked');
      expect(verifyRequests).to.equal(2);
    });

    it("with the cache and the receiver, a revoked token fails as soon as L2's notice lands", async () => {
      let kit!: L1Kit;
      const l1 = await new KitServer().start(
        (self) => (kit = kitFor(self, { cache: { positiveTtlSeconds: 60 } })),
      );
      servers.push(l1);
      const token = await attach(l1.url);
      for (let i = 0; i < 5; i++) expect((await kit.verify(token)).username).to.equal('alice');
      expect(verifyRequests).to.equal(1); // four from the cache

      await logout();
      await l1.noticesHandled(1);
      expect(l1.notices[0]).to.include({ username: 'alice', issuer: l2.url });
      const refused = await kit.verify(token).catch((error: unknown) => error);
      expect((refused as TokenError).code).to.equal('token_revoked');
      expect(verifyRequests).to.equal(2);
    });

    it('with the cache, a revoked token fails within the TTL even when the notice never arrives', async () => {
      let now = Date.now();
      const l1 = 'http://127.0.0.1:9'; // L2's notice goes nowhere
      const kit = kitFor(l1, { cache: { positiveTtlSeconds: 60 }, now: () => now });
      const receiver = kit.noticeReceiver(); // mounted, but unreachable
      const token = await attach(l1);
      await kit.verify(token);
      await logout();
      now += 59_000;
      expect((await kit.verify(token)).username).to.equal('alice'); // the bound the TTL gives, no more
      now += 1_000;
      const refused = await kit.verify(token).catch((error: unknown) => error);
      expect((refused as TokenError).code).to.equal('token_revoked');
      receiver.close();
    });

    describe('forged notices, with L2 signing real ones', () => {
      let capture: FakeL1Server;
      let kitServer: KitServer;
      /** The token hash and the logout token of a real notice, as L2 delivered it to `capture`. */
      let real: Record<string, unknown>;
      let realClaims: JWTPayload;
      let l2Key: CryptoKey;

      beforeEach(async () => {
        capture = await new FakeL1Server().start();
        servers.push(capture);
        // The kit speaks for `capture` (its self, the notices' aud) but listens elsewhere, so tests choose what reaches it.
        kitServer = await new KitServer().start(() => kitFor(capture.url));
        servers.push(kitServer);
        await attach(capture.url);
        await logout();
        await capture.waitForNotices(1);
        real = capture.notices[0]!.body;
        realClaims = decodeJwt(real.logout_token as string);
        l2Key = await importPKCS8(readFileSync(join(l2.dir, 'notice_signing_key'), 'utf8'), 'ES256');
      });

      const deliver = async (body: unknown) => {
        const response = await fetch(`${kitServer.url}/auth/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return {
          status: response.status,
          body: (await response.json().catch(() => ({}))) as { detail?: string },
        };
      };
      const signedAsL2 = (claims: JWTPayload, key: CryptoKey = l2Key) =>
        new SignJWT(claims)
          .setProtectedHeader({
            alg: 'ES256',
            kid: decodeProtectedHeader(real.logout_token as string).kid!,
            typ: 'logout+jwt',
          })
          .sign(key);
      const now = () => Math.floor(Date.now() / 1000);

      it('takes the real notice once (204, the hook called), and refuses it replayed (400)', async () => {
        expect((await deliver(real)).status).to.equal(204);
        expect(kitServer.notices).to.have.length(1);
        expect(kitServer.notices[0]).to.include({
          username: 'alice',
          tokenHash: real.token_hash,
          jti: real.token_hash,
        });
        const replay = await deliver(real);
        expect(replay.status).to.equal(400);
        expect(replay.body.detail).to.match(/replay/);
        expect(kitServer.notices).to.have.length(1);
      });

      const forgeries: [string, RegExp, () => Promise<Record<string, unknown>>][] = [
        ['unsigned (no logout_token)', /not signed/, async () => ({ ...real, logout_token: undefined })],
        [
          "signed by another key under L2's kid",
          /SIGNATURE_VERIFICATION_FAILED/,
          async () => ({
            ...real,
            logout_token: await signedAsL2(realClaims, (await generateKeyPair('ES256')).privateKey),
          }),
        ],
        [
          'with alg: none',
          /ALG_NOT_ALLOWED/,
          async () => {
            const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
            return {
              ...real,
              logout_token: `${part({ alg: 'none', typ: 'logout+jwt' })}.${part(realClaims)}.`,
            };
          },
        ],
        [
          'carrying a nonce (signed with L2’s own key)',
          /nonce/,
          async () => ({
            ...real,
            logout_token: await signedAsL2({ ...realClaims, nonce: 'n-0S6_WzA2Mj', jti: 'n1' }),
          }),
        ],
        [
          'expired (signed with L2’s own key)',
          /"exp" claim/,
          async () => ({
            ...real,
            logout_token: await signedAsL2({ ...realClaims, iat: now() - 250, exp: now() - 130, jti: 'old' }),
          }),
        ],
      ];
      for (const [what, reason, forge] of forgeries) {
        it(`refuses a notice ${what} with 400 and never calls the hook`, async () => {
          const answer = await deliver(await forge());
          expect(answer.status).to.equal(400);
          expect(answer.body.detail).to.match(reason);
          expect(kitServer.notices).to.deep.equal([]);
        });
      }

      it('refuses a real notice L2 signed for another L1 server (aud) with 400, and never calls the hook', async () => {
        const other = await new FakeL1Server().start();
        servers.push(other);
        await (async () => {
          session = await (
            await client(l2.url).post('/auth/login', { username: 'alice', password: PASSWORD })
          ).json.access_token;
          await attach(other.url);
          await logout();
        })();
        await other.waitForNotices(1);
        const answer = await deliver(other.notices[0]!.body);
        expect(answer.status).to.equal(400);
        expect(answer.body.detail).to.match(/"aud"/);
        expect(kitServer.notices).to.deep.equal([]);
      });
    });

    describe('when L2 cannot answer', () => {
      const expressApp = (kit: L1Kit) => {
        let calls = 0;
        const app = express();
        app.get('/me', forExpress.protect(kit), (req, res) => {
          calls++;
          res.json(req.l2!.user);
        });
        return { app, calls: () => calls };
      };
      const serve = async (app: express.Express) => {
        const server = createServer(app);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        servers.push({
          stop: () =>
            new Promise((resolve) => {
              server.closeAllConnections();
              server.close(resolve);
            }),
        });
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      };

      it('answers 503 and never calls the handler while L2 answers 503 (its store is down)', async () => {
        const l1 = 'http://127.0.0.1:9';
        const { app, calls } = expressApp(kitFor(l1));
        const url = await serve(app);
        const token = await attach(l1);
        const me = () => fetch(`${url}/me`, { headers: { authorization: `Bearer ${token}` } });
        expect((await me()).status).to.equal(200);
        revocationsDown = true;
        const answer = await me();
        expect(answer.status).to.equal(503);
        expect(answer.headers.get('retry-after')).to.match(/^\d+$/);
        expect(calls()).to.equal(1); // the one call before the store failed
      });

      it('answers 503 and never calls the handler while L2 does not answer at all', async () => {
        const l1 = 'http://127.0.0.1:9';
        const { app, calls } = expressApp(kitFor(l1, { timeoutMs: 2000 }));
        const url = await serve(app);
        const token = await attach(l1);
        await l2.close();
        const answer = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(answer.status).to.equal(503);
        expect((await answer.json()) as object).to.include({ code: 'unavailable' });
        expect(calls()).to.equal(0);
      });
    });

    it('shares one request to L2 among 100 concurrent verifications of one token', async () => {
      const l1 = 'http://127.0.0.1:9';
      const kit = kitFor(l1);
      const token = await attach(l1);
      const users = await Promise.all(Array.from({ length: 100 }, () => kit.verify(token)));
      expect(new Set(users.map((user) => user.username))).to.deep.equal(new Set(['alice']));
      expect(verifyRequests).to.equal(1);
    });
  });
}
