// Issue 23, item 7: one IPv6 subscriber (a home /56 holds 256 /64s) flooding the login with invented usernames must
// not stall everyone's login. Real bcrypt at cost 10 (~45 ms a compare here) over a real server: 400 attempts queued
// behind each other would hold a login up for about nine seconds on two cores.
import { expect } from 'chai';
import { OverloadedError } from '../../../src/application/ports/errors.js';
import type { PasswordHasher } from '../../../src/application/ports/password-hasher.js';
import { FormBrowser } from '../../support/browser.js';
import { client, registerUser, type HttpResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, PASSWORD, startServer, STORES, type StoreKind } from './helpers.js';

const FLOOD = 400;

/** A login from `address` (the proxy's X-Forwarded-For). */
async function login(url: string, username: string, password: string, address: string) {
  const response = await client(url).post(
    '/auth/login',
    { username, password },
    { headers: { 'x-forwarded-for': address } },
  );
  return { response };
}

/**
 * Starts `FLOOD` logins of invented usernames at once; `inLine` resolves once every one of them is either with the
 * password hasher (checked, waiting, or refused there) or answered without it. Only then is the real login sent, so
 * it arrives behind the whole flood, as it would in a real storm. Event-driven: no sleeping.
 */
function flood(
  server: TestServer,
  reachedHasher: () => number,
  addressOf: (i: number) => string,
  usernameOf: (i: number) => string = (i) => `ghost_${i}`,
) {
  let answeredWithoutHasher = 0;
  let release = () => {};
  const inLine = new Promise<void>((resolve) => (release = resolve));
  const check = () => {
    if (reachedHasher() + answeredWithoutHasher >= FLOOD) release();
  };
  const answers = Array.from({ length: FLOOD }, (_, i) =>
    login(server.url, usernameOf(i), 'a wrong guess', addressOf(i)).then((answer) => {
      if (answer.response.status === 429) answeredWithoutHasher++;
      check();
      return answer;
    }),
  );
  return { inLine, answers: Promise.all(answers), check };
}

/**
 * Starts a server whose password hasher reports each call (the real one still does the work): `calls` counts them,
 * and `callsBefore` is how many began before the first check of `PASSWORD` — how long a line the real login waited
 * in, counted in compares rather than in seconds, which depend on the machine.
 */
async function serverWatchingHasher(store: StoreKind, env: Record<string, string>) {
  const watch = { calls: 0, callsBefore: NaN, onCall: () => {} };
  const server = await startServer(store, {
    env: { BCRYPT_COST: '10', TRUST_PROXY: 'true', ...env },
    override: {
      passwordHasher: ({ bcrypt: real }) => {
        const watched: PasswordHasher = {
          hash: (bytes) => real.hash(bytes),
          needsRehash: (hash) => real.needsRehash(hash),
          verify: (bytes, hash, clientAddress) => {
            if (Number.isNaN(watch.callsBefore) && Buffer.from(bytes).toString() === PASSWORD)
              watch.callsBefore = watch.calls;
            watch.calls++;
            watch.onCall();
            return real.verify(bytes, hash, clientAddress);
          },
        };
        return watched;
      },
    },
  });
  const registered = await client(server.url).post('/auth/register', {
    username: 'alice',
    password: PASSWORD,
  });
  expect(registered.status, registered.text).to.equal(201);
  return { server, watch };
}

const retryAfterOf = (response: HttpResponse) => Number(response.headers.get('retry-after'));

const metric = async (url: string, series: string) => {
  const text = (await client(url).get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.split(' ')[1]);
};

for (const store of STORES) {
  describe(`login storm from one IPv6 home (${store})`, function () {
    let server: TestServer;
    afterEach(() => server?.close());

    it('leaves a real login answered 200, behind a short line, while a burst from many /64s of one /56 gets 429 with Retry-After', async () => {
      const started = await serverWatchingHasher(store, { LOGIN_MAX_FAILURES_PER_56: '20' });
      server = started.server;
      // 16 /64s of 2001:db8:77::/56, 25 attempts each: inside every /64's own budget of 50.
      const storm = flood(
        server,
        () => started.watch.calls,
        (i) => `2001:db8:77:${(i % 16).toString(16)}::${i}`,
      );
      started.watch.onCall = storm.check;
      await storm.inLine;

      const real = await login(server.url, 'alice', PASSWORD, '198.51.100.20');
      expect(real.response.status, real.response.text).to.equal(200);
      // Behind the /56's 20 compares at most, not the flood's 400 (how fast that is: `npm run bench`, sign-in).
      expect(started.watch.callsBefore, 'compares checked before the real login').to.be.at.most(20);

      const answers = await storm.answers;
      const limited = answers.filter((a) => a.response.status === 429);
      const checked = answers.filter((a) => a.response.status === 401);
      expect(checked.length + limited.length, 'every flood answer is 401 or 429').to.equal(FLOOD);
      expect(checked.length, 'attempts that reached bcrypt').to.equal(20);
      for (const { response } of limited) {
        expectProblem(response, 429, 'rate_limited');
        expect(retryAfterOf(response)).to.be.within(1, 900);
      }
    });
  });
}

describe('login storm from many sites (memory)', function () {
  let server: TestServer;
  afterEach(() => server?.close());

  it('refuses what would wait beyond about a second of hashing with 503 and Retry-After, and logs in a real user', async () => {
    const started = await serverWatchingHasher('memory', {
      BCRYPT_QUEUE_SECONDS: '1',
      LOGIN_MAX_FAILURES_PER_USERNAME: '1000',
    });
    server = started.server;
    const bob = await client(server.url).post('/auth/register', { username: 'bob', password: PASSWORD });
    expect(bob.status, bob.text).to.equal(201);
    // Every attempt guesses a real account's password from its own /48: no address budget helps, nor one client's
    // share of the line; only the bound on the line does. (Invented usernames never reach it: login-fair-share.)
    const storm = flood(
      server,
      () => started.watch.calls,
      (i) => `2001:db8:${i.toString(16)}::1`,
      () => 'bob',
    );
    started.watch.onCall = storm.check;
    await storm.inLine;

    // Sent into the full storm: answered with a token or a refusal saying when to come back (how soon: `npm run
    // bench`, login storm).
    const during = await login(server.url, 'alice', PASSWORD, '198.51.100.20');
    expect([200, 503]).to.include(during.response.status);

    const answers = await storm.answers;
    const refused = answers.filter((a) => a.response.status === 503);
    expect(refused.length, 'flood attempts refused for load').to.be.above(0);
    for (const { response } of refused) {
      expectProblem(response, 503, 'unavailable');
      expect(retryAfterOf(response)).to.be.within(1, 10);
    }
    expect(await metric(server.url, 'l2_bcrypt_refused_total')).to.equal(
      refused.length + (during.response.status === 503 ? 1 : 0),
    );

    // Once the storm has been answered, the line is empty again.
    expect((await login(server.url, 'alice', PASSWORD, '198.51.100.20')).response.status).to.equal(200);
  });
});

describe('a password asked for while the bcrypt line is full (memory)', () => {
  let server: TestServer;
  let alice: string;
  /** When set, the hasher refuses every hash and check as a full line does: at once, saying when to come back. */
  const line = { full: false };
  const BUSY = 'Too many passwords are being checked right now. Try again in 4 seconds.';

  beforeEach(async () => {
    line.full = false;
    server = await startServer('memory', {
      override: {
        passwordHasher: ({ bcrypt: real }) => {
          const refuseWhenFull = <T>(job: () => Promise<T>) =>
            line.full ? Promise.reject(new OverloadedError('the line is full', 4)) : job();
          return {
            hash: (bytes) => refuseWhenFull(() => real.hash(bytes)),
            verify: (bytes, hash, clientAddress) =>
              refuseWhenFull(() => real.verify(bytes, hash, clientAddress)),
            needsRehash: (hash) => real.needsRehash(hash),
          } satisfies PasswordHasher;
        },
      },
    });
    alice = await registerUser(server.url, 'alice', PASSWORD);
  });
  afterEach(() => server?.close());

  const expectBusy = (response: HttpResponse) => {
    const problem = expectProblem(response, 503, 'unavailable');
    expect(response.headers.get('retry-after')).to.equal('4');
    return problem;
  };

  it('answers a login 503 unavailable as problem+json with Retry-After, and counts it', async () => {
    line.full = true;
    const api = client(server.url);
    expect(
      expectBusy(await api.post('/auth/login', { username: 'alice', password: PASSWORD })).detail,
    ).to.equal(BUSY);
    expect(await metric(server.url, 'l2_logins_total{outcome="unavailable"}')).to.equal(1);
    line.full = false;
    expect((await api.post('/auth/login', { username: 'alice', password: PASSWORD })).status).to.equal(200);
  });

  it('shows the login form again with the message, the username kept, status 503 and Retry-After', async () => {
    const browser = new FormBrowser(server.url);
    await browser.get('/login');
    line.full = true;
    const response = await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
    expect(response.status).to.equal(503);
    expect(response.headers.get('retry-after')).to.equal('4');
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(response.text).to.match(/role="alert"/);
    expect(response.text).to.include(BUSY);
    expect(response.text).to.match(/name="username"[^>]*value="alice"/);
    expect(response.text).to.not.include(PASSWORD);
    expect(browser.cookie('l2_token')).to.equal(undefined);
  });

  it('refuses a password change and an account deletion with 503 and Retry-After, changing nothing', async () => {
    const api = client(server.url);
    line.full = true;
    expectBusy(
      await api.post(
        '/auth/password',
        { current_password: PASSWORD, new_password: 'another horse 42' },
        {
          token: alice,
        },
      ),
    );
    expectBusy(await api.post('/auth/delete-account', { password: PASSWORD }, { token: alice }));
    line.full = false;
    expect((await api.get('/auth/me', { token: alice })).status).to.equal(200);
    expect((await api.post('/auth/login', { username: 'alice', password: PASSWORD })).status).to.equal(200);
  });

  it('shows the Account page again with the message when a password change is refused', async () => {
    const browser = new FormBrowser(server.url);
    await browser.get('/login');
    await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
    await browser.get('/account');
    line.full = true;
    const response = await browser.submit('/auth/password', {
      current_password: PASSWORD,
      new_password: 'another horse 42',
    });
    expect(response.status).to.equal(503);
    expect(response.headers.get('retry-after')).to.equal('4');
    expect(response.text).to.include(BUSY);
  });

  it('answers a registration 503 unavailable with Retry-After, creating no account', async () => {
    line.full = true;
    const api = client(server.url);
    expectBusy(await api.post('/auth/register', { username: 'bob', password: PASSWORD }));
    line.full = false;
    expect((await api.post('/auth/login', { username: 'bob', password: PASSWORD })).status).to.equal(401);
  });
});
