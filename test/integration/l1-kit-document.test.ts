// The L1 kit as a Client ID Metadata Document client (API.md §2.5, issue 36) against a real L2 on 127.0.0.1
// (L1_ALLOW_PRIVATE=true): L2 fetches the document the kit serves, its consent page names the kit next to the
// verified host, the code exchange is authenticated with private_key_jwt (a fresh assertion each time, which L2's
// replay check would otherwise refuse), and a logout at L2 reaches the kit as a form-encoded logout_token that ends
// the kit's session.
import { expect } from 'chai';
import express from 'express';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { protect, routes } from '../../packages/l1-kit/src/adapters/express.js';
import { createL1Kit, hashToken, type L1Kit } from '../../packages/l1-kit/src/index.js';
import type { FormBrowser } from '../support/browser.js';
import { consentFields, signedInBrowser } from '../support/sign-in-with-l2.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** An Express L1 server around the kit in document mode, recording what L2 asked of it and what the kit sent. */
class DocumentKitApp {
  url = '';
  kit!: L1Kit;
  /** GETs of the client document (L2's look-ups). */
  documentFetches = 0;
  /** The Content-Type of every notice that reached the kit's notice route. */
  readonly noticeTypes: string[] = [];
  /** The bodies of the kit's requests to L2's token endpoint. */
  readonly tokenRequests: URLSearchParams[] = [];
  readonly sessions = new Map<string, { token: string; username: string }>();
  #ended: (() => void)[] = [];
  #server: Server | undefined;

  /** Resolves once a session has been ended by a notice. */
  sessionEnded(): Promise<void> {
    return new Promise((resolve) => this.#ended.push(resolve));
  }

  async start(l2: string, keyFile: string): Promise<this> {
    this.#server = createServer();
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    this.kit = createL1Kit({
      l2,
      self: this.url,
      client: { keyFile, name: 'Render Studio' },
      fetch: async (url, init) => {
        if (String(url).endsWith('/oauth/token'))
          this.tokenRequests.push(new URLSearchParams(String(init?.body)));
        return fetch(url, init);
      },
    });
    const sessionOf = (cookie: string | undefined) =>
      this.sessions.get(/(?:^|;\s*)session=([\w-]+)/.exec(cookie ?? '')?.[1] ?? '');
    const app = express();
    app.use((req, _res, next) => {
      if (req.method === 'GET' && req.path === '/auth/client.json') this.documentFetches++;
      if (req.method === 'POST' && req.path === '/auth/revoke')
        this.noticeTypes.push(req.get('content-type') ?? '');
      next();
    });
    app.use(
      routes(this.kit, {
        onSignIn: ({ user, token }, { res }) => {
          const id = randomBytes(16).toString('base64url');
          this.sessions.set(id, { token, username: user.username });
          res.setHeader('Set-Cookie', `session=${id}; HttpOnly; SameSite=Lax; Path=/`);
        },
        onLogout: ({ tokenHash }) => {
          for (const [id, session] of this.sessions) {
            if (hashToken(session.token) === tokenHash) this.sessions.delete(id);
          }
          for (const resolve of this.#ended.splice(0)) resolve();
        },
      }),
    );
    app.get(
      '/me',
      protect(this.kit, { getToken: (req) => sessionOf(req.headers.cookie)?.token }),
      (req, res) => res.json({ username: req.l2!.user.username, l1_server: req.l2!.user.l1Server }),
    );
    this.#server.on('request', app);
    return this;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

describe('the L1 kit as a client metadata document client, against a real L2', () => {
  let l2: TestServer;
  let app: DocumentKitApp;
  let atL2: FormBrowser;
  let keyDir: string;

  beforeEach(async () => {
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
    keyDir = mkdtempSync(join(tmpdir(), 'l1-kit-client-key-'));
    app = await new DocumentKitApp().start(l2.url, join(keyDir, 'client-key.pem'));
    atL2 = await signedInBrowser(l2.url, 'alice', PASSWORD);
  });
  afterEach(async () => {
    await app.stop();
    await l2.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  /** The browser's round trip through the kit's sign-in link, L2's consent page (returned) and the kit's callback. */
  async function signIn(): Promise<{ consent: string; cookie: string }> {
    const start = await fetch(`${app.url}/auth/login?returnTo=/me`, { redirect: 'manual' });
    expect(start.status).to.equal(303);
    const stateCookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('client_id')).to.equal(`${app.url}/auth/client.json`);

    const consent = await atL2.get(authorize.pathname + authorize.search);
    expect(consent.status, consent.text).to.equal(200);
    const allowed = await atL2.submit('/oauth/authorize', {
      ...consentFields(consent.text),
      decision: 'allow',
    });
    const callback = allowed.headers.get('location')!;
    expect(callback.startsWith(`${app.url}/auth/callback?`), callback).to.equal(true);

    const back = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
    expect(back.status, await back.clone().text()).to.equal(303);
    expect(back.headers.get('location')).to.equal('/me');
    const cookie = back.headers.getSetCookie().find((c) => c.startsWith('session='))!;
    return { consent: consent.text, cookie: cookie.split(';')[0]! };
  }
  const me = (cookie: string) => fetch(`${app.url}/me`, { headers: { cookie } });

  it('is fetched by L2, named on the consent page next to its host, and signs in with private_key_jwt', async () => {
    const clientId = `${app.url}/auth/client.json`;
    const { consent, cookie } = await signIn();

    expect(app.documentFetches).to.be.greaterThan(0);
    expect(consent).to.match(
      new RegExp(
        `<strong>127\\.0\\.0\\.1:${new URL(app.url).port}</strong> describes itself as <strong class="client-name">Render Studio</strong>`,
      ),
    );
    const answer = await me(cookie);
    expect(answer.status).to.equal(200);
    expect(await answer.json()).to.deep.equal({ username: 'alice', l1_server: clientId });
    const renderers = await atL2.get('/renderers', { headers: { accept: 'application/json' } });
    expect(renderers.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([clientId]);

    // The exchange carried an assertion signed with the key the document publishes; a second sign-in carries a
    // fresh one (L2 refuses a jti it has seen, so the second sign-in completing shows it too).
    await signIn();
    expect(app.tokenRequests).to.have.length(2);
    const assertions = app.tokenRequests.map((body) => {
      expect(body.get('client_assertion_type')).to.equal(ASSERTION_TYPE);
      return body.get('client_assertion')!;
    });
    const published = ((await app.kit.clientDocument()) as { jwks: { keys: { kid: string }[] } }).jwks.keys;
    for (const assertion of assertions) {
      expect(decodeProtectedHeader(assertion)).to.deep.include({ alg: 'ES256', kid: published[0]!.kid });
      expect(decodeJwt(assertion)).to.deep.include({ iss: clientId, sub: clientId, aud: l2.url });
    }
    expect(decodeJwt(assertions[0]!).jti).to.not.equal(decodeJwt(assertions[1]!).jti);
    // The key the kit generated is kept for the next start, readable by its owner only.
    expect(statSync(join(keyDir, 'client-key.pem')).mode & 0o777).to.equal(0o600);
  });

  it('ends the kit’s session when a logout at L2 reaches it as a form-encoded logout_token', async () => {
    const { cookie } = await signIn();
    expect((await me(cookie)).status).to.equal(200);
    const ended = app.sessionEnded();

    await atL2.submit('/auth/logout', {});
    await ended;

    expect(app.noticeTypes).to.deep.equal(['application/x-www-form-urlencoded']);
    expect(app.sessions.size).to.equal(0);
    expect((await me(cookie)).status).to.equal(401);
  });
});
