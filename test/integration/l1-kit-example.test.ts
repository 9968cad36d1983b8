// The kit's example L1 server (packages/l1-kit/examples/render-server.ts) against a real L2: a browser signs in with
// L2 through the real consent page, the example's pages and API answer for the user, a logout at L2 ends the
// example's session through the signed notice, and the example fails closed when L2 cannot answer.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRenderServer, type RenderServer } from '../../packages/l1-kit/examples/render-server.js';
import { hashToken } from '../../packages/l1-kit/src/index.js';
import type { FormBrowser } from '../support/browser.js';
import { client } from '../support/http.js';
import { consentFields, signedInBrowser } from '../support/sign-in-with-l2.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';

describe('the kit’s example L1 server against a real L2', () => {
  let l2: TestServer;
  let l1: RenderServer;
  let atL2: FormBrowser;

  beforeEach(async () => {
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
    l1 = await startRenderServer({ l2: l2.url, positiveTtlSeconds: 30, timeoutMs: 2000 });
    await l1.kit.ready();
    atL2 = await signedInBrowser(l2.url, 'alice', PASSWORD);
  });
  afterEach(async () => {
    await l1.close();
    await l2.close();
  });

  /** The browser's round trip: the example's sign-in link, L2's consent page (Allow), the example's callback. */
  async function signIn(): Promise<string> {
    const start = await fetch(`${l1.url}/auth/login?returnTo=/me`, { redirect: 'manual' });
    expect(start.status).to.equal(303);
    const stateCookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin + authorize.pathname).to.equal(`${l2.url}/oauth/authorize`);

    const consent = await atL2.get(authorize.pathname + authorize.search);
    expect(consent.status).to.equal(200);
    const allowed = await atL2.submit('/oauth/authorize', {
      ...consentFields(consent.text),
      decision: 'allow',
    });
    const callback = allowed.headers.get('location')!;
    expect(callback.startsWith(`${l1.url}/auth/callback?`)).to.equal(true);

    const back = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
    expect(back.status).to.equal(303);
    expect(back.headers.get('location')).to.equal('/me'); // the code leaves the address bar
    const session = back.headers.getSetCookie().find((c) => c.startsWith('render_session='));
    expect(session).to.match(/HttpOnly/);
    return session!.split(';')[0]!;
  }
  const me = (cookie: string) => fetch(`${l1.url}/me`, { headers: { cookie } });

  it('signs a browser in with L2, shows who it is, and lists itself among the user’s renderers at L2', async () => {
    const cookie = await signIn();
    const answer = await me(cookie);
    expect(answer.status).to.equal(200);
    expect(await answer.json()).to.deep.include({ username: 'alice', l1_server: l1.url });
    const renderers = await atL2.get('/renderers', { headers: { accept: 'application/json' } });
    expect(renderers.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([l1.url]);
  });

  /** Settles when the example next ends one of its sessions (what L2's notice makes it do). */
  const sessionEnds = () =>
    new Promise<void>((resolve) => {
      const remove = l1.sessions.delete.bind(l1.sessions);
      l1.sessions.delete = (id) => {
        const removed = remove(id);
        resolve();
        return removed;
      };
    });

  it('ends the example’s session as soon as L2’s signed notice lands after a logout at L2', async () => {
    const cookie = await signIn();
    expect((await me(cookie)).status).to.equal(200);
    expect(l1.sessions.size).to.equal(1);
    const sessionEnded = sessionEnds();

    await atL2.submit('/auth/logout', {});
    await sessionEnded;
    const after = await me(cookie);
    expect(after.status).to.equal(401);
  });

  it('in document mode (a client key file), signs in as its client document, and L2’s form notice ends the session', async () => {
    await l1.close();
    const dir = mkdtempSync(join(tmpdir(), 'render-example-'));
    try {
      l1 = await startRenderServer({ l2: l2.url, clientKeyFile: join(dir, 'client-key.pem') });
      const cookie = await signIn();
      const answer = await me(cookie);
      expect(await answer.json()).to.deep.include({
        username: 'alice',
        l1_server: `${l1.url}/auth/client.json`,
      });
      const sessionEnded = sessionEnds();

      await atL2.submit('/auth/logout', {});
      await sessionEnded;
      expect((await me(cookie)).status).to.equal(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('protects its API with the scoped tokens L2 issues, and refuses one revoked at L2', async () => {
    const session = atL2.cookie('l2_token')!;
    const token = (await client(l2.url).post('/renderers/attach', { l1_server: l1.url }, { token: session }))
      .json.access_token as string;
    const render = () =>
      fetch(`${l1.url}/render`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(await (await render()).json()).to.deep.equal({ rendered_for: 'alice' });
    // The example keeps a valid answer 30 s; the notice L2 sends on detach is what ends it early.
    let noticeArrived!: () => void;
    const purged = new Promise<void>((resolve) => (noticeArrived = resolve));
    const purge = l1.kit.purge.bind(l1.kit);
    l1.kit.purge = (hash) => {
      purge(hash);
      if (hash === hashToken(token)) noticeArrived();
    };
    await client(l2.url).post('/renderers/detach', { l1_server: l1.url }, { token: session });
    await purged;
    const refused = await render();
    expect(refused.status).to.equal(401);
    expect(await refused.json()).to.deep.include({ code: 'token_revoked' });
  });

  it('fails closed when L2 stops answering: 503, never the page', async () => {
    const fresh = await startRenderServer({ l2: l2.url, timeoutMs: 1500 }); // no cache: every request asks L2
    try {
      const session = atL2.cookie('l2_token')!;
      const token = (
        await client(l2.url).post('/renderers/attach', { l1_server: fresh.url }, { token: session })
      ).json.access_token as string;
      await l2.close();
      const answer = await fetch(`${fresh.url}/render`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status).to.equal(503);
    } finally {
      await fresh.close();
    }
  });
});
