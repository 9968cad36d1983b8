import { expect } from 'chai';
import { forgeToken, validClaims } from '../../support/forge.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import {
  expectProblem,
  isoMillis,
  jwtPayload,
  keysOf,
  nowSeconds,
  PASSWORD,
  startServer,
  STORES,
  THIRTY_DAYS_SECONDS,
} from './helpers.js';

const PRIVATE_L1_SERVERS = [
  'http://127.0.0.1:9',
  'http://localhost:9',
  'http://[::1]:9',
  'http://169.254.169.254',
  'http://10.0.0.1',
  'http://[::ffff:127.0.0.1]',
  'http://localhost.:9',
  'http://api.localhost',
  'http://0.0.0.0',
  'http://[::]',
  'http://127.1',
  'http://2130706433',
  'http://0x7f.1',
  'http://[::ffff:7f00:1]',
  'http://[fe80::1]',
  'http://[fc00::1]',
  'http://172.16.0.1',
  'http://192.168.1.1',
  'http://100.64.0.1',
  'http://0',
  'http://0177.0.0.1',
  'http://[::ffff:a9fe:a9fe]',
  'http://[64:ff9b::7f00:1]',
  'http://[fd00::1]',
  'http://224.0.0.1',
];

for (const store of STORES) {
  describe(`renderers (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let alice: string;

    const attach = (token: string, l1Server: unknown) =>
      api.post('/renderers/attach', { l1_server: l1Server }, { token });
    const attachOk = async (token: string, l1Server: string) => {
      const response = await attach(token, l1Server);
      expect(response.status, response.text).to.equal(201);
      return response.json.access_token as string;
    };
    const verifyCode = async (token: string, l1Server?: string) => {
      const response = await api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
      return response.status === 200 ? 'valid' : (response.json.code as string);
    };
    const list = (token: string) => api.get('/renderers', { token, headers: { accept: 'application/json' } });

    afterEach(() => server?.close());

    describe('in development', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice', PASSWORD);
      });

      describe('POST /renderers/attach (JSON)', () => {
        it('answers 201 with exactly access_token, token_type Bearer, the normalised l1_server and expires_at', async () => {
          const response = await attach(alice, 'https://L1.Example:443/');
          expect(response.status, response.text).to.equal(201);
          expect(keysOf(response.json)).to.deep.equal([
            'access_token',
            'expires_at',
            'l1_server',
            'token_type',
          ]);
          expect(response.json).to.include({ token_type: 'Bearer', l1_server: 'https://l1.example' });
          expect(response.headers.get('cache-control')).to.equal('no-store');
          const claims = jwtPayload(response.json.access_token);
          expect(isoMillis(response.json.expires_at)).to.equal(claims.exp * 1000);
        });

        it('issues a token carrying the l1_server and sid (the session jti) claims, for the same user', async () => {
          const scoped = await attachOk(alice, 'https://L1.Example:443/');
          const claims = jwtPayload(scoped);
          const session = jwtPayload(alice);
          expect(claims).to.include({
            l1_server: 'https://l1.example',
            sid: session.jti,
            sub: 'alice',
            username: 'alice',
            l2_server: 'http://l2.test',
          });
          expect(keysOf(claims)).to.deep.equal(
            ['amr', 'exp', 'iat', 'iss', 'jti', 'l1_server', 'l2_server', 'sid', 'sub', 'username'].sort(),
          );
          // The session's (a registration: a password).
          expect(claims.amr).to.deep.equal(['pwd']);
          expect(claims.jti).to.be.a('string').and.not.equal(session.jti);
          expect(claims.exp - claims.iat).to.be.at.most(THIRTY_DAYS_SECONDS);
          expect(claims.exp).to.be.at.most(session.exp);
        });

        it('normalises the L1 URL: lower-cased scheme and host, no default port, no trailing slash, dot segments resolved', async () => {
          for (const [input, canonical] of [
            ['HTTPS://L1.EXAMPLE/', 'https://l1.example'],
            ['http://l1.example:80/', 'http://l1.example'],
            ['https://l1.example:8443/', 'https://l1.example:8443'],
            ['https://l1.example/render/', 'https://l1.example/render'],
            ['https://l1.example/a/../b', 'https://l1.example/b'],
          ]) {
            const response = await attach(alice, input);
            expect(response.status, input).to.equal(201);
            expect(response.json.l1_server, input).to.equal(canonical);
            expect(jwtPayload(response.json.access_token).l1_server, input).to.equal(canonical);
          }
        });

        it('never lets the scoped token outlive the session: a session expiring in 1 hour gives a token expiring by then', async () => {
          const now = nowSeconds();
          const session = forgeToken(
            validClaims({ sub: 'alice', username: 'alice', iat: now, exp: now + 3600 }),
          );
          const response = await attach(session, 'https://l1.example');
          expect(response.status, response.text).to.equal(201);
          const claims = jwtPayload(response.json.access_token);
          expect(claims.exp).to.be.at.most(now + 3600);
          expect(isoMillis(response.json.expires_at)).to.be.at.most((now + 3600) * 1000);
          expect(await verifyCode(response.json.access_token, 'https://l1.example')).to.equal('valid');
        });

        it('issues a token that verifies only at its L1 server', async () => {
          const scoped = await attachOk(alice, 'https://l1.example');
          expect(await verifyCode(scoped, 'https://l1.example')).to.equal('valid');
          expect(await verifyCode(scoped, 'https://l1.other')).to.equal('token_scope_mismatch');
        });

        it('refuses a scoped token with 403 forbidden: it cannot mint another', async () => {
          const scoped = await attachOk(alice, 'https://a.example');
          expectProblem(await attach(scoped, 'https://b.example'), 403, 'forbidden');
          expectProblem(await attach(scoped, 'https://a.example'), 403, 'forbidden');
        });

        it('refuses a scoped token with 403 before judging the body: attach or detach, a bad l1_server or none', async () => {
          const scoped = await attachOk(alice, 'https://a.example');
          expectProblem(await attach(scoped, 'not a url'), 403, 'forbidden');
          expectProblem(await api.post('/renderers/detach', {}, { token: scoped }), 403, 'forbidden');
          expectProblem(
            await api.post('/renderers/detach', { l1_server: 'https://a.example' }, { token: scoped }),
            403,
            'forbidden',
          );
          expect(await verifyCode(scoped, 'https://a.example')).to.equal('valid');
        });

        it('answers 401 unauthenticated without a token, and 401 for a garbage token', async () => {
          const response = await api.post('/renderers/attach', { l1_server: 'https://l1.example' });
          expectProblem(response, 401, 'unauthenticated');
          expect(response.headers.get('cache-control')).to.equal('no-store');
          expectProblem(await attach('garbage', 'https://l1.example'), 401, 'token_invalid');
        });

        for (const l1 of [
          'ftp://l1.example',
          'https://user:pw@l1.example',
          'https://l1.example@evil.test',
          'https://l1.example/?q=1',
          'https://l1.example/#top',
          'l1.example',
          '/relative',
          '',
          42,
          ['https://l1.example'],
          { url: 'https://l1.example' },
          null,
        ]) {
          it(`refuses the l1_server ${JSON.stringify(l1)} with 400 invalid_request`, async () => {
            const body = expectProblem(await attach(alice, l1), 400, 'invalid_request');
            expect(body.errors.map((e: { path: string }) => e.path)).to.include('l1_server');
          });
        }

        it('refuses a body without l1_server with 400', async () => {
          expectProblem(await api.post('/renderers/attach', {}, { token: alice }), 400, 'invalid_request');
        });

        it('stores an internationalised host in its ASCII (punycode) form', async () => {
          const response = await attach(alice, 'https://BÜCHER.example/');
          expect(response.status, response.text).to.equal(201);
          expect(response.json.l1_server).to.equal('https://xn--bcher-kva.example');
          const scoped = response.json.access_token as string;
          expect(await verifyCode(scoped, 'https://bücher.example')).to.equal('valid');
          expect(await verifyCode(scoped, 'https://xn--bcher-kva.example/')).to.equal('valid');
          expect(await verifyCode(scoped, 'https://bucher.example')).to.equal('token_scope_mismatch');
        });

        it('attaches at most 20 L1 servers per user: the 21st answers 403 and issues no token; re-attaching passes', async () => {
          for (let i = 0; i < 20; i++) await attachOk(alice, `https://l1-${i}.example`);
          const refused = await attach(alice, 'https://one-too-many.example');
          expectProblem(refused, 403, 'forbidden');
          expect(refused.json.detail).to.match(/At most 20 L1 servers/);
          expect(refused.json).to.not.have.property('access_token');
          expect((await list(alice)).json.items).to.have.length(20);

          expect((await attach(alice, 'https://l1-7.example')).status).to.equal(201);
          const bob = await registerUser(server.url, 'bob', PASSWORD);
          expect((await attach(bob, 'https://one-too-many.example')).status).to.equal(201);
          await api.post('/renderers/detach', { l1_server: 'https://l1-3.example' }, { token: alice });
          expect((await attach(alice, 'https://one-too-many.example')).status).to.equal(201);
        });

        it('issues another token when attaching again, and the earlier one stays valid', async () => {
          const first = await attachOk(alice, 'https://l1.example');
          const second = await attachOk(alice, 'https://L1.example/');
          expect(second).to.not.equal(first);
          expect(await verifyCode(first, 'https://l1.example')).to.equal('valid');
          expect(await verifyCode(second, 'https://l1.example')).to.equal('valid');
        });
      });

      describe('GET /renderers', () => {
        it('lists nothing before any attach', async () => {
          const response = await list(alice);
          expect(response.status).to.equal(200);
          expect(response.json).to.deep.equal({ items: [] });
        });

        it('lists the attachments as {items: [{l1_server, attached_at}]}, newest first, normalised', async () => {
          const before = Date.now();
          await attachOk(alice, 'https://A.example:443/');
          await attachOk(alice, 'https://b.example/');
          const response = await list(alice);
          expect(response.status, response.text).to.equal(200);
          expect(response.headers.get('content-type')).to.match(/^application\/json/);
          expect(keysOf(response.json)).to.deep.equal(['items']);
          expect(response.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([
            'https://b.example',
            'https://a.example',
          ]);
          for (const item of response.json.items) {
            expect(keysOf(item)).to.deep.equal(['attached_at', 'l1_server']);
            expect(isoMillis(item.attached_at)).to.be.within(before - 1000, Date.now() + 1000);
          }
          expect(response.headers.get('cache-control')).to.equal('no-store');
        });

        it('lists one entry per L1 server however often it was attached', async () => {
          await attachOk(alice, 'https://a.example');
          await attachOk(alice, 'https://A.EXAMPLE/');
          const response = await list(alice);
          expect(response.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([
            'https://a.example',
          ]);
        });

        it("lists only the caller's attachments", async () => {
          const bob = await registerUser(server.url, 'bob');
          await attachOk(bob, 'https://bob.example');
          await attachOk(alice, 'https://alice.example');
          const response = await list(alice);
          expect(response.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([
            'https://alice.example',
          ]);
        });

        it('answers 401 unauthenticated to a JSON request without a token', async () => {
          const response = await api.get('/renderers', { headers: { accept: 'application/json' } });
          expectProblem(response, 401, 'unauthenticated');
          expect(response.headers.get('cache-control')).to.equal('no-store');
        });

        it('answers a signed-out browser (Accept: text/html) with 303 to /login?next=%2Frenderers', async () => {
          const response = await api.get('/renderers', { headers: { accept: 'text/html' } });
          expect(response.status).to.equal(303);
          expect(response.headers.get('location')).to.equal('/login?next=%2Frenderers');
        });

        it('answers a signed-in browser with the HTML page listing the attachments', async () => {
          await attachOk(alice, 'https://a.example');
          const response = await api.get('/renderers', { token: alice, headers: { accept: 'text/html' } });
          expect(response.status).to.equal(200);
          expect(response.headers.get('content-type')).to.match(/^text\/html/);
          expect(response.text).to.include('https://a.example');
        });

        it('answers 406 not_acceptable to Accept: image/png', async () => {
          const response = await api.get('/renderers', { token: alice, headers: { accept: 'image/png' } });
          expectProblem(response, 406, 'not_acceptable');
        });

        it('honours q-values: application/json;q=1 beats text/html;q=0.5', async () => {
          const response = await api.get('/renderers', {
            token: alice,
            headers: { accept: 'text/html;q=0.5, application/json' },
          });
          expect(response.status).to.equal(200);
          expect(response.json).to.deep.equal({ items: [] });
        });

        it('answers HTML to no Accept, to */* and to a tie between HTML and JSON', async () => {
          for (const accept of [
            undefined,
            '*/*',
            'application/json, text/html',
            'text/html;q=0.8, application/json;q=0.8',
          ]) {
            const response = await api.get('/renderers', { token: alice, headers: accept ? { accept } : {} });
            expect(response.status, String(accept)).to.equal(200);
            expect(response.headers.get('content-type'), String(accept)).to.match(/^text\/html/);
          }
        });

        it('answers 406 to application/activity+json (no ActivityStreams form)', async () => {
          const response = await api.get('/renderers', {
            token: alice,
            headers: { accept: 'application/activity+json' },
          });
          expectProblem(response, 406, 'not_acceptable');
        });

        it('carries Vary: Accept on its JSON, HTML and 406 answers', async () => {
          for (const accept of ['application/json', 'text/html', 'image/png']) {
            const response = await api.get('/renderers', { token: alice, headers: { accept } });
            expect(response.headers.get('vary') ?? '', accept).to.match(/\bAccept\b/i);
          }
        });
      });

      describe('POST /renderers/detach (JSON)', () => {
        it('revokes the tokens for that L1 server from every session of the user, and only those', async () => {
          const second = (await api.post('/auth/login', { username: 'alice', password: PASSWORD })).json
            .access_token;
          const fromFirst = await attachOk(alice, 'https://a.example');
          const fromSecond = await attachOk(second, 'https://A.example/');
          const otherL1 = await attachOk(alice, 'https://b.example');
          const response = await api.post(
            '/renderers/detach',
            { l1_server: 'https://a.example' },
            { token: alice },
          );
          expect(response.status, response.text).to.equal(200);
          expect(response.json).to.deep.equal({ revoked: 2 });
          expect(response.headers.get('cache-control')).to.equal('no-store');
          expect(await verifyCode(fromFirst, 'https://a.example')).to.equal('token_revoked');
          expect(await verifyCode(fromSecond, 'https://a.example')).to.equal('token_revoked');
          expect(await verifyCode(otherL1, 'https://b.example')).to.equal('valid');
          expect(await verifyCode(alice)).to.equal('valid');
          expect(await verifyCode(second)).to.equal('valid');
        });

        it('removes the attachment from the list and keeps the others', async () => {
          await attachOk(alice, 'https://a.example');
          await attachOk(alice, 'https://b.example');
          await api.post('/renderers/detach', { l1_server: 'https://A.EXAMPLE:443/' }, { token: alice });
          const response = await list(alice);
          expect(response.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([
            'https://b.example',
          ]);
        });

        it("does not touch another user's tokens for the same L1 server", async () => {
          const bob = await registerUser(server.url, 'bob');
          const bobScoped = await attachOk(bob, 'https://a.example');
          await attachOk(alice, 'https://a.example');
          const response = await api.post(
            '/renderers/detach',
            { l1_server: 'https://a.example' },
            { token: alice },
          );
          expect(response.json).to.deep.equal({ revoked: 1 });
          expect(await verifyCode(bobScoped, 'https://a.example')).to.equal('valid');
          expect((await list(bob)).json.items).to.have.length(1);
        });

        it('answers {revoked: 0} for an L1 server that is not attached, and again after a detach', async () => {
          expect(
            (await api.post('/renderers/detach', { l1_server: 'https://x.example' }, { token: alice })).json,
          ).to.deep.equal({ revoked: 0 });
          await attachOk(alice, 'https://a.example');
          await api.post('/renderers/detach', { l1_server: 'https://a.example' }, { token: alice });
          const again = await api.post(
            '/renderers/detach',
            { l1_server: 'https://a.example' },
            { token: alice },
          );
          expect(again.json).to.deep.equal({ revoked: 0 });
        });

        it('answers 401 without a token and 400 for an invalid l1_server', async () => {
          expectProblem(
            await api.post('/renderers/detach', { l1_server: 'https://a.example' }),
            401,
            'unauthenticated',
          );
          expectProblem(
            await api.post('/renderers/detach', { l1_server: 'ftp://a.example' }, { token: alice }),
            400,
            'invalid_request',
          );
        });
      });
    });

    for (const mode of ['production', 'development']) {
      describe(`in ${mode} without L1_ALLOW_PRIVATE (the rules hold in every mode)`, () => {
        beforeEach(async () => {
          server = await startServer(store, {
            env: { NODE_ENV: mode, L1_ALLOW_PRIVATE: 'false', BCRYPT_COST: '10' },
          });
          api = client(server.url);
          alice = await registerUser(server.url, 'alice', PASSWORD);
        });

        it('refuses every loopback, private, link-local and unspecified L1 address with 400 invalid_request', async () => {
          for (const l1 of PRIVATE_L1_SERVERS) {
            const response = await attach(alice, l1);
            expect(response.status, `${l1}: ${response.text}`).to.equal(400);
            expect(response.json.code).to.equal('invalid_request');
          }
          expect((await list(alice)).json.items).to.deep.equal([]);
        });

        it('still attaches a public L1 server', async () => {
          expect((await attach(alice, 'https://l1.example')).status).to.equal(201);
        });
      });
    }

    describe('in production with L1_ALLOW_PRIVATE=true', () => {
      beforeEach(async () => {
        server = await startServer(store, {
          env: { NODE_ENV: 'production', L1_ALLOW_PRIVATE: 'true', BCRYPT_COST: '10' },
        });
        api = client(server.url);
        alice = await registerUser(server.url, 'alice', PASSWORD);
      });

      it('attaches loopback and private L1 servers (201)', async () => {
        for (const l1 of [
          'http://127.0.0.1:9',
          'http://localhost:9',
          'http://[::1]:9',
          'http://169.254.169.254',
          'http://10.0.0.1',
          'http://[::ffff:127.0.0.1]',
        ]) {
          const response = await attach(alice, l1);
          expect(response.status, `${l1}: ${response.text}`).to.equal(201);
        }
      });
    });
  });
}
