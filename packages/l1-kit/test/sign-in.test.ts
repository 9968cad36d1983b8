import { expect } from 'chai';
import { createHash } from 'node:crypto';
import express from 'express';
import { createL1Kit, type L1Kit, type SignInResult } from '../src/index.js';
import { routes } from '../src/adapters/express.js';
import { StandInL2, TestClock } from './support/stand-in-l2.js';
import { TestServer } from './support/servers.js';

describe('l1-kit "Sign in with L2": authorization code + PKCE (API.md §2.3)', () => {
  let clock: TestClock;
  let l2: StandInL2;
  let l1: TestServer;
  let kit: L1Kit;
  let signIns: SignInResult[];

  beforeEach(async () => {
    clock = new TestClock();
    l2 = await new StandInL2({ now: clock.now }).start();
    l1 = await new TestServer().start();
    signIns = [];
    kit = createL1Kit({ l2: l2.url, self: l1.url, now: clock.now });
    const app = express();
    app.use(
      routes(kit, {
        onSignIn: (result, { res }) => {
          signIns.push(result);
          res.setHeader('Set-Cookie', 'session=opaque-id; Path=/; HttpOnly; SameSite=Lax');
        },
      }),
    );
    l1.handler = app;
  });
  afterEach(async () => {
    await l1.stop();
    await l2.stop();
  });

  /** The browser presses "Sign in with L2": the L1's redirect and the cookie it set. */
  async function begin(returnTo?: string) {
    const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
    const response = await fetch(`${l1.url}/auth/login${query}`, { redirect: 'manual' });
    const setCookie = response.headers.getSetCookie();
    return {
      response,
      location: response.headers.get('location') ?? '',
      setCookie,
      cookie: pair(setCookie[0]),
    };
  }
  /** The browser at L2's authorization endpoint, the user signed in and pressing Allow (or Deny). */
  async function consent(authorizeUrl: string): Promise<string> {
    const response = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(response.status).to.equal(303);
    return response.headers.get('location')!;
  }
  const callback = (url: string, cookie?: string) =>
    fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const pair = (setCookie: string | undefined) => (setCookie ?? '').split(';')[0]!;

  it('sends the browser to L2 with state and an S256 challenge, and brings it back signed in, code stripped', async () => {
    const start = await begin('/studio/new?tab=2');
    expect(start.response.status).to.equal(303);
    const authorize = new URL(start.location);
    expect(authorize.origin + authorize.pathname).to.equal(`${l2.url}/oauth/authorize`);
    const q = Object.fromEntries(authorize.searchParams);
    expect(q).to.include({
      response_type: 'code',
      client_id: l1.url,
      redirect_uri: `${l1.url}/auth/callback`,
      code_challenge_method: 'S256',
    });
    expect(q.state).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(q.code_challenge).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(start.setCookie[0]).to.match(
      /^l1kit_signin=[^;]+; Path=\/auth\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );

    const back = await consent(start.location);
    expect(back).to.match(new RegExp(`^${l1.url}/auth/callback\\?`));
    const done = await callback(back, start.cookie);

    expect(done.status).to.equal(303);
    expect(done.headers.get('location')).to.equal('/studio/new?tab=2');
    expect(done.headers.get('referrer-policy')).to.equal('no-referrer');
    const cookies = done.headers.getSetCookie();
    expect(cookies).to.include('session=opaque-id; Path=/; HttpOnly; SameSite=Lax');
    expect(cookies.some((c) => /^l1kit_signin=; Path=\/auth\/callback; Max-Age=0;/.test(c))).to.be.true;
    expect(signIns).to.have.length(1);
    expect(signIns[0]!.user).to.deep.include({ username: 'alice', l1Server: l1.url });
    expect((await kit.verify(signIns[0]!.token)).username).to.equal('alice');
    const exchange = Object.fromEntries(l2.tokenRequests[0]!);
    expect(exchange).to.include({
      grant_type: 'authorization_code',
      redirect_uri: `${l1.url}/auth/callback`,
      client_id: l1.url,
    });
    expect(createHash('sha256').update(exchange.code_verifier!).digest('base64url')).to.equal(
      q.code_challenge,
    );
  });

  it('refuses a callback whose state is not the one this browser started (400), without exchanging the code', async () => {
    const mine = await begin();
    const theirs = await begin();
    const theirCallback = await consent(theirs.location);

    const response = await callback(theirCallback, mine.cookie);

    expect(response.status).to.equal(400);
    expect(await response.json()).to.deep.include({ code: 'state_mismatch' });
    expect(response.headers.getSetCookie().some((c) => c.startsWith('l1kit_signin=;'))).to.be.true;
    expect(l2.counts.token).to.equal(0);
    expect(signIns).to.deep.equal([]);
  });

  it('refuses a callback in a browser that started no sign-in (400)', async () => {
    const start = await begin();
    const response = await callback(await consent(start.location));
    expect(response.status).to.equal(400);
    expect(l2.counts.token).to.equal(0);
    expect(signIns).to.deep.equal([]);
  });

  it('answers 403 access_denied when the user presses Deny at L2', async () => {
    l2.consent = 'deny';
    const start = await begin();
    const response = await callback(await consent(start.location), start.cookie);
    expect(response.status).to.equal(403);
    expect(await response.json()).to.deep.include({ code: 'access_denied' });
    expect(l2.counts.token).to.equal(0);
    expect(signIns).to.deep.equal([]);
  });

  it('passes on L2 refusing the code (invalid_grant, e.g. a code used twice) as a 400', async () => {
    const start = await begin();
    const back = await consent(start.location);
    expect((await callback(back, start.cookie)).status).to.equal(303);
    const again = await callback(back, start.cookie);
    expect(again.status).to.equal(400);
    expect(await again.json()).to.deep.include({ code: 'invalid_grant' });
    expect(signIns).to.have.length(1);
  });

  it('only ever sends the browser back to a local path', async () => {
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'relative']) {
      const start = await begin(returnTo);
      const done = await callback(await consent(start.location), start.cookie);
      expect(done.headers.get('location'), returnTo).to.equal('/');
    }
  });

  it("sends a browser arriving from L2's attach form (?token= in the URL) to a proper sign-in, token stripped", async () => {
    const token = await l2.issue('alice', { l1: l1.url });
    const response = await callback(`${l1.url}/auth/callback?token=${token}`);
    expect(response.status).to.equal(303);
    expect(response.headers.get('location')).to.equal('/auth/login');
    expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(l2.counts.verify).to.equal(0);
    expect(signIns).to.deep.equal([]);
  });

  it('lets the onSignIn hook answer the browser itself', async () => {
    const app = express();
    app.use(routes(kit, { onSignIn: (_result, { res }) => void res.redirect(303, '/welcome') }));
    l1.handler = app;
    const start = await begin('/elsewhere');
    const done = await callback(await consent(start.location), start.cookie);
    expect(done.status).to.equal(303);
    expect(done.headers.get('location')).to.equal('/welcome');
  });

  it('does not spend the code on a HEAD request (a prefetch)', async () => {
    const start = await begin();
    const back = await consent(start.location);
    expect((await fetch(back, { method: 'HEAD', headers: { cookie: start.cookie } })).status).to.equal(404);
    expect(l2.counts.token).to.equal(0);
    expect((await callback(back, start.cookie)).status).to.equal(303);
  });

  it('fails closed (503) when L2 is gone at the code exchange, and calls no hook', async () => {
    const start = await begin();
    const back = await consent(start.location);
    await l2.stop();
    const response = await callback(back, start.cookie);
    expect(response.status).to.equal(503);
    expect(signIns).to.deep.equal([]);
  });

  it('does not start when the metadata names another issuer: 503, no redirect anywhere', async () => {
    l2.metadataOverrides = { issuer: 'http://l2.impostor.test' };
    const start = await begin();
    expect(start.response.status).to.equal(503);
    expect(start.location).to.equal('');
    expect(await start.response.json()).to.deep.include({ code: 'unavailable' });
    expect(l2.counts.authorize).to.equal(0);
    await kit.ready().then(
      () => expect.fail('ready() must reject'),
      (error: Error & { reason: string }) => expect(error.reason).to.equal('issuer_mismatch'),
    );
  });
});
