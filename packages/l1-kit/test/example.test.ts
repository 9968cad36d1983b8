import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startRenderServer, type RenderServer } from '../examples/render-server.js';
import { StandInL2, TestClock } from './support/stand-in-l2.js';

/**
 * The example L1 server, end to end, as a browser and an API client use it. Against the stand-in L2 here (which can
 * fail in ways a real one rarely does); the repository's test/integration/l1-kit-example.test.ts runs the same
 * scenarios against a real L2.
 */
describe('l1-kit example render server (examples/render-server.ts)', () => {
  let clock: TestClock;
  let l2: StandInL2;
  let l1: RenderServer;

  beforeEach(async () => {
    clock = new TestClock();
    l2 = await new StandInL2({ now: clock.now }).start();
    l1 = await startRenderServer({ l2: l2.url, positiveTtlSeconds: 30, timeoutMs: 1500, now: clock.now });
    await l1.kit.ready();
  });
  afterEach(async () => {
    await l1.close();
    await l2.stop();
  });

  /** A browser: signs in with L2 (pressing Allow there) and keeps the example's session cookie. */
  async function signIn(): Promise<string> {
    const home = await fetch(`${l1.url}/`);
    expect(await home.text()).to.contain('href="/auth/login?returnTo=/me"');
    const start = await fetch(`${l1.url}/auth/login?returnTo=/me`, { redirect: 'manual' });
    const state = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const atL2 = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = await fetch(atL2.headers.get('location')!, {
      redirect: 'manual',
      headers: { cookie: state },
    });
    expect(back.status).to.equal(303);
    expect(back.headers.get('location')).to.equal('/me');
    const session = back.headers.getSetCookie().find((c) => c.startsWith('render_session='));
    expect(session).to.match(/HttpOnly/);
    return session!.split(';')[0]!;
  }
  const me = (cookie: string) => fetch(`${l1.url}/me`, { headers: { cookie } });

  it('signs a browser in with L2 and shows who it is', async () => {
    const cookie = await signIn();
    const response = await me(cookie);
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.include({ username: 'alice', l1_server: l1.url });
    expect(await (await fetch(`${l1.url}/`, { headers: { cookie } })).text()).to.contain(
      'Signed in as alice',
    );
  });

  it('serves repeat requests from the short cache, and signs the browser out as soon as the notice lands', async () => {
    const cookie = await signIn();
    const verificationsAtSignIn = l2.counts.verify;
    for (let i = 0; i < 3; i++) expect((await me(cookie)).status).to.equal(200);
    expect(l2.counts.verify).to.equal(verificationsAtSignIn); // all from the cache

    const [session] = [...l1.sessions.values()];
    expect((await l2.revokeAndNotify(session!.token)).status).to.equal(204);

    expect(l1.sessions.size).to.equal(0); // the hook ended the session
    const after = await me(cookie);
    expect(after.status).to.equal(401);
    expect(await after.json()).to.deep.include({ code: 'unauthenticated' });
  });

  it('protects its API with bearer tokens: a cached token fails as soon as its notice lands', async () => {
    const token = await l2.issue('bob', { l1: l1.url });
    const render = () =>
      fetch(`${l1.url}/render`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(await (await render()).json()).to.deep.equal({ rendered_for: 'bob' });

    expect((await l2.revokeAndNotify(token)).status).to.equal(204);

    const refused = await render();
    expect(refused.status).to.equal(401);
    expect(await refused.json()).to.deep.include({ code: 'token_revoked' });
  });

  it('fails closed while L2 cannot answer: 503, never the page', async () => {
    const cookie = await signIn();
    clock.advance(31); // past the cache
    l2.verifyMode = 'unavailable';
    l2.retryAfter = '3';
    const response = await me(cookie);
    expect(response.status).to.equal(503);
    expect(response.headers.get('retry-after')).to.equal('3');
    l2.verifyMode = 'hang';
    clock.advance(3);
    expect((await me(cookie)).status).to.equal(503);
  });

  it('keeps running, in its own process, after a sign-in whose returnTo Node cannot put in a header', async () => {
    const example = await startExampleProcess(l2.url);
    try {
      // A victim follows https://l1/auth/login?returnTo=/%E2%82%AC (or /%00, /%7F) and signs in.
      for (const [returnTo, location] of [
        ['/%E2%82%AC', '/%E2%82%AC'],
        ['/%00', '/'],
        ['/%7F', '/%7F'],
        ['//evil.example', '/'],
        ['/%5Cevil.example', '/'],
      ] as const) {
        const start = await fetch(`${example.url}/auth/login?returnTo=${returnTo}`, { redirect: 'manual' });
        const state = start.headers.getSetCookie()[0]!.split(';')[0]!;
        const atL2 = await fetch(start.headers.get('location')!, { redirect: 'manual' });
        const back = await fetch(atL2.headers.get('location')!, {
          redirect: 'manual',
          headers: { cookie: state },
        }).catch(() => example.exited); // the connection closed: say why
        expect(back.status, returnTo).to.equal(303);
        expect(back.headers.get('location'), returnTo).to.equal(location);
        const session = back.headers.getSetCookie().find((c) => c.startsWith('render_session='))!;
        const page = await fetch(`${example.url}/`, { headers: { cookie: session.split(';')[0]! } });
        expect(await page.text()).to.contain('Signed in as alice');
      }
    } finally {
      example.process.kill();
    }
  });
});

/**
 * `npm run example` as an operator runs it — its own process, so that whatever would end it (an unhandled rejection)
 * does: `exited` rejects with its exit code and what it wrote to stderr.
 */
async function startExampleProcess(
  l2Url: string,
): Promise<{ url: string; process: ChildProcess; exited: Promise<never> }> {
  const script = fileURLToPath(new URL('../examples/render-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, L2_URL: l2Url, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => {
    const error = /^\w*Error\b.*$/m.exec(stderr)?.[0] ?? stderr.trim();
    throw new Error(`the example exited (code ${String(code)}): ${error}`);
  });
  exited.catch(() => {}); // observed where a request fails, and while starting
  let stdout = '';
  const started = new Promise<string>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /render server at (\S+),/.exec(stdout)?.[1];
      if (url) resolve(url);
    }),
  );
  const url = await Promise.race([started, exited]);
  return { url, process: child, exited };
}
