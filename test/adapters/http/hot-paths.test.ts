// The hot paths (verify, introspection, webfinger, the actor answered from node:http) give exactly the answer the Koa routes give:
// the same request is sent to the real server and to the Koa application alone, on the same store, and the status,
// headers and body must agree — for the requests the hot paths answer and for those they hand over.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { AP_ACCEPT, assetBody } from './registry/support.js';
import { PASSWORD, startServer, STORES } from './helpers.js';

/** Headers that differ between any two answers whatever produced them. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

interface Probe {
  readonly name: string;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Whether the hot path answers it itself (else it hands it to Koa). */
  readonly hot: boolean;
}

for (const store of STORES) {
  describe(`hot paths (${store})`, () => {
    let server: TestServer;
    let koaOnly: Server;
    let koaUrl: string;

    beforeEach(async () => {
      server = await startServer(store);
      koaOnly = createServer(server.l2.app.callback());
      await new Promise<void>((resolve) => koaOnly.listen(0, '127.0.0.1', resolve));
      koaUrl = `http://127.0.0.1:${(koaOnly.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      koaOnly.closeAllConnections();
      await new Promise((resolve) => koaOnly.close(resolve));
      await server?.close();
    });

    async function answer(base: string, probe: Probe) {
      const response = await fetch(`${base}${probe.path}`, {
        method: probe.method ?? 'GET',
        headers: probe.headers,
        body: probe.body,
        redirect: 'manual',
      });
      // A page for a signed-out browser sets a fresh CSRF cookie and puts its token in forms: random each time.
      const random = (text: string) =>
        text.replace(/l2_csrf=[^;]+/g, 'l2_csrf=…').replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf"');
      const headers = [...response.headers]
        .filter(([name]) => !PER_ANSWER.has(name))
        .map(([name, value]) => [name, random(value)]);
      return { status: response.status, headers, body: random(await response.text()) };
    }

    it('answer every request exactly as the Koa routes do, and answer the common ones themselves', async () => {
      const api = client(server.url);
      const alice = await registerUser(server.url, 'alice', PASSWORD);
      const scoped = (
        await api.post('/renderers/attach', { l1_server: 'https://l1.example' }, { token: alice })
      ).json.access_token as string;
      const revoked = (await api.post('/auth/login', { username: 'alice', password: PASSWORD })).json
        .access_token as string;
      await api.post('/auth/logout', {}, { token: revoked });
      const gone = await registerUser(server.url, 'gone_user', PASSWORD);
      await api.post('/auth/delete-account', { password: PASSWORD }, { token: gone });
      // Three activities in the transparency log.
      for (const name of ['one', 'two', 'three'])
        expect((await api.post('/assets', assetBody(name), { token: alice })).status).to.equal(201);

      const verify = (body: unknown, contentType = 'application/json'): Omit<Probe, 'name' | 'hot'> => ({
        path: '/auth/verify',
        method: 'POST',
        headers: { 'content-type': contentType },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const introspect = (
        text: string,
        contentType = 'application/x-www-form-urlencoded',
      ): Omit<Probe, 'name' | 'hot'> => ({
        path: '/oauth/introspect',
        method: 'POST',
        headers: { 'content-type': contentType },
        body: text,
      });
      const webfinger = (resource: string) =>
        `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
      const probes: Probe[] = [
        { name: 'verify a session token', ...verify({ token: alice }), hot: true },
        {
          name: 'verify a scoped token',
          ...verify({ token: scoped, l1_server: 'HTTPS://L1.Example:443/' }),
          hot: true,
        },
        {
          name: 'verify, charset given',
          ...verify({ token: alice }, 'application/json; charset=utf-8'),
          hot: true,
        },
        { name: 'verify a revoked token', ...verify({ token: revoked }), hot: false },
        {
          name: 'verify for another L1',
          ...verify({ token: scoped, l1_server: 'https://l2.example' }),
          hot: false,
        },
        { name: 'verify a scoped token without l1', ...verify({ token: scoped }), hot: false },
        { name: 'verify garbage', ...verify({ token: 'not.a.token' }), hot: false },
        { name: 'verify a bad l1_server', ...verify({ token: alice, l1_server: 'ftp://x' }), hot: false },
        { name: 'verify without token', ...verify({}), hot: false },
        { name: 'verify malformed JSON', ...verify('{"token":'), hot: false },
        { name: 'verify a JSON string', ...verify('"token"'), hot: false },
        {
          name: 'verify as a form',
          ...verify(`token=${alice}`, 'application/x-www-form-urlencoded'),
          hot: false,
        },
        { name: 'verify as text', ...verify(JSON.stringify({ token: alice }), 'text/plain'), hot: false },
        { name: 'webfinger', path: webfinger('acct:alice@l2.test'), hot: true },
        { name: 'webfinger, @ form', path: webfinger('acct:@alice@l2.test'), hot: true },
        { name: 'webfinger, upper case', path: webfinger('acct:ALICE@L2.TEST'), hot: true },
        { name: 'webfinger, actor URL', path: webfinger('http://l2.test/users/alice'), hot: false },
        { name: 'webfinger, unknown user', path: webfinger('acct:nobody@l2.test'), hot: false },
        { name: 'webfinger, deleted user', path: webfinger('acct:gone_user@l2.test'), hot: false },
        { name: 'webfinger, other domain', path: webfinger('acct:alice@elsewhere.example'), hot: false },
        {
          name: 'webfinger, two parameters',
          path: `${webfinger('acct:alice@l2.test')}&rel=self`,
          hot: false,
        },
        { name: 'webfinger, no resource', path: '/.well-known/webfinger?rel=self', hot: false },
        { name: 'actor', path: '/users/alice', headers: { accept: AP_ACCEPT }, hot: true },
        {
          name: 'actor, ld+json',
          path: '/users/alice',
          headers: { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' },
          hot: true,
        },
        {
          name: 'actor, Mastodon accept',
          path: '/users/alice',
          headers: { accept: 'application/activity+json, application/ld+json' },
          hot: true,
        },
        { name: 'actor as JSON', path: '/users/alice', headers: { accept: 'application/json' }, hot: false },
        { name: 'actor, no accept', path: '/users/alice', hot: false },
        { name: 'actor, deleted', path: '/users/gone_user', headers: { accept: AP_ACCEPT }, hot: false },
        { name: 'actor, unknown', path: '/users/nobody', headers: { accept: AP_ACCEPT }, hot: false },
        { name: 'actor, upper case', path: '/users/Alice', headers: { accept: AP_ACCEPT }, hot: false },
        { name: 'actor, query', path: '/users/alice?x=1', headers: { accept: AP_ACCEPT }, hot: false },
        { name: 'actor, not acceptable', path: '/users/alice', headers: { accept: 'image/png' }, hot: false },
        { name: 'introspect a session token', ...introspect(`token=${alice}`), hot: true },
        {
          name: 'introspect a scoped token with its resource',
          ...introspect(`token=${scoped}&resource=${encodeURIComponent('https://L1.example/')}&client_id=x`),
          hot: true,
        },
        {
          name: 'introspect as JSON',
          ...introspect(JSON.stringify({ token: alice }), 'application/json'),
          hot: true,
        },
        { name: 'introspect a scoped token without resource', ...introspect(`token=${scoped}`), hot: true },
        {
          name: 'introspect a scoped token by its own client_id (API.md §2.5)',
          ...introspect(`token=${scoped}&client_id=${encodeURIComponent('https://l1.example')}`),
          hot: true,
        },
        {
          name: 'introspect a session token by a client_id',
          ...introspect(`token=${alice}&client_id=${encodeURIComponent('https://l1.example')}`),
          hot: true,
        },
        {
          name: 'introspect with a client_secret',
          ...introspect(
            `token=${scoped}&client_id=${encodeURIComponent('https://l1.example')}&client_secret=s`,
          ),
          hot: false,
        },
        {
          name: 'introspect naming the client twice',
          ...introspect(`token=${scoped}&client_id=a&client_id=b`),
          hot: false,
        },
        { name: 'introspect a revoked token', ...introspect(`token=${revoked}`), hot: true },
        { name: 'introspect garbage', ...introspect('token=x'), hot: true },
        { name: 'introspect without token', ...introspect('resource=x'), hot: false },
        { name: 'introspect as text', ...introspect(`token=${alice}`, 'text/plain'), hot: false },
        { name: 'checkpoint', path: '/tlog/checkpoint', hot: true },
        { name: 'checkpoint, query', path: '/tlog/checkpoint?x=1', hot: false },
        { name: 'key', path: '/tlog/key', hot: false },
        { name: 'tile', path: '/tlog/tile/0/000.p/3', hot: true },
        { name: 'tile, narrower', path: '/tlog/tile/0/000.p/2', hot: true },
        {
          name: 'bundle, gzip',
          path: '/tlog/tile/entries/000.p/3',
          headers: { 'accept-encoding': 'gzip' },
          hot: true,
        },
        {
          name: 'bundle, gzip again',
          path: '/tlog/tile/entries/000.p/3',
          headers: { 'accept-encoding': 'gzip' },
          hot: true,
        },
        {
          name: 'bundle, identity',
          path: '/tlog/tile/entries/000.p/3',
          headers: { 'accept-encoding': 'identity' },
          hot: true,
        },
        { name: 'tile beyond', path: '/tlog/tile/0/000.p/4', hot: false },
        { name: 'tile, leading zero', path: '/tlog/tile/0/0000.p/3', hot: false },
        { name: 'tile, query', path: '/tlog/tile/0/000.p/3?x=1', hot: false },
        { name: 'tile, encoded', path: '/tlog/tile/0/%30%30%30.p/3', hot: false },
      ];

      for (const probe of probes) {
        const before = server.l2.hotPathAnswers();
        const viaServer = await answer(server.url, probe);
        const answeredHere = server.l2.hotPathAnswers() - before;
        const viaKoa = await answer(koaUrl, probe);
        expect(viaServer, probe.name).to.deep.equal(viaKoa);
        expect(answeredHere, `${probe.name}: answered by the hot path`).to.equal(probe.hot ? 1 : 0);
      }
    });

    it('count their answers in /metrics under the route pattern, as Koa would', async () => {
      const alice = await registerUser(server.url, 'alice', PASSWORD);
      for (let i = 0; i < 3; i++) await client(server.url).post('/auth/verify', { token: alice });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).to.match(
        /l2_http_requests_total\{method="POST",route="\/auth\/verify",status="200"\} 3\b/,
      );
      expect(server.l2.hotPathAnswers()).to.equal(3);
    });
  });
}
