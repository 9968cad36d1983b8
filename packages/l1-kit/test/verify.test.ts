import { expect } from 'chai';
import { createL1Kit, L2UnavailableError, TokenError, type L1Kit } from '../src/index.js';
import { StandInL2, TestClock } from './support/stand-in-l2.js';
import { rejection } from './support/servers.js';

const SELF = 'http://render.test';

describe('l1-kit verify(): the verdict of POST /auth/verify, without a cache', () => {
  let clock: TestClock;
  let l2: StandInL2;
  let kit: L1Kit;

  beforeEach(async () => {
    clock = new TestClock();
    l2 = await new StandInL2({ now: clock.now }).start();
    kit = createL1Kit({ l2: l2.url, self: `${SELF}/`, now: clock.now });
  });
  afterEach(() => l2.stop());

  it('returns the user of a scoped and of a plain token, sending the normalised own URL as l1_server', async () => {
    const scoped = await l2.issue('alice', { l1: SELF });
    const plain = await l2.issue('bob');

    const alice = await kit.verify(scoped);
    const bob = await kit.verify(plain);

    expect(alice).to.deep.include({ username: 'alice', l2Server: l2.url, l1Server: SELF });
    expect(alice.expiresAt).to.be.instanceOf(Date);
    expect(bob).to.deep.include({ username: 'bob', l1Server: null });
    expect(l2.verifyBodies).to.deep.equal([
      { token: scoped, l1_server: SELF },
      { token: plain, l1_server: SELF },
    ]);
  });

  it('throws a typed 401 with the precise code and an RFC 6750 challenge for each refusal', async () => {
    const other = await new StandInL2({ now: clock.now }).start();
    const forged = await other.issue('mallory'); // signed by another L2
    await other.stop();
    const expired = await l2.issue('alice', { lifetimeSeconds: 10 });
    const revoked = await l2.issue('alice', { l1: SELF });
    l2.revoke(revoked);
    const elsewhere = await l2.issue('alice', { l1: 'http://other-render.test' });
    clock.advance(11);

    const cases = {
      token_invalid: forged,
      token_expired: expired,
      token_revoked: revoked,
      token_scope_mismatch: elsewhere,
    };
    for (const [code, token] of Object.entries(cases)) {
      const error = (await rejection(kit.verify(token))) as TokenError;
      expect(error, code).to.be.instanceOf(TokenError);
      expect(error.code).to.equal(code);
      expect(error.status).to.equal(401);
      expect(error.statusCode).to.equal(401);
      expect(error.headers['WWW-Authenticate']).to.match(
        new RegExp(`^Bearer realm="${SELF}", error="invalid_token", error_description="[^"]+"$`),
      );
      expect(error.toProblem()).to.deep.include({ status: 401, code });
    }
    expect(l2.counts.verify).to.equal(4);
  });

  it('refuses what cannot be a token without asking L2 (token_invalid)', async () => {
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', 'a.b.', `${'a'.repeat(4096)}.b.c`, 'a.b.c d']) {
      const error = (await rejection(kit.verify(token))) as TokenError;
      expect(error.code, JSON.stringify(token)).to.equal('token_invalid');
    }
    expect(l2.counts.verify).to.equal(0);
  });

  it('asks L2 every time by default, so a revoked token fails at the very next call', async () => {
    const token = await l2.issue('alice', { l1: SELF });
    expect((await kit.verify(token)).username).to.equal('alice');
    expect((await kit.verify(token)).username).to.equal('alice');
    expect(l2.counts.verify).to.equal(2);

    l2.revoke(token); // no notice sent: nothing but L2 knows

    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_revoked');
    expect(l2.counts.verify).to.equal(3);
  });

  it('shares one request among 100 concurrent verifications of one token', async () => {
    const token = await l2.issue('alice', { l1: SELF });
    const users = await Promise.all(Array.from({ length: 100 }, () => kit.verify(token)));
    expect(l2.counts.verify).to.equal(1);
    expect(new Set(users.map((u) => u.username))).to.deep.equal(new Set(['alice']));

    l2.revoke(token);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => kit.verify(token)));
    expect(l2.counts.verify).to.equal(2);
    expect(
      outcomes.every((o) => o.status === 'rejected' && (o.reason as TokenError).code === 'token_revoked'),
    ).to.be.true;
  });

  it('keeps a refusal until the token expires, then asks again', async () => {
    const token = await l2.issue('alice', { l1: SELF, lifetimeSeconds: 3600 });
    l2.revoke(token);
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_revoked');
    clock.advance(3599);
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_revoked');
    expect(l2.counts.verify).to.equal(1);

    clock.advance(1);
    expect(((await rejection(kit.verify(token))) as TokenError).code).to.equal('token_expired');
    expect(l2.counts.verify).to.equal(2);
  });

  const failures: [string, (l2: StandInL2) => void | Promise<void>, string][] = [
    ['answers 503', (l2) => void (l2.verifyMode = 'unavailable'), 'status'],
    ['answers 500', (l2) => void (l2.verifyMode = 'error500'), 'status'],
    ['answers 429', (l2) => void (l2.verifyMode = 'rate_limited'), 'status'],
    [
      'answers 200 with a body that is not a verification',
      (l2) => void (l2.verifyMode = 'garbage'),
      'malformed',
    ],
    ['answers 200 with an HTML page', (l2) => void (l2.verifyMode = 'html'), 'malformed'],
    ['never answers', (l2) => void (l2.verifyMode = 'hang'), 'timeout'],
    ['is not there at all', (l2) => l2.stop(), 'network'],
  ];
  for (const [what, breakIt, reason] of failures) {
    it(`fails closed with a 503 L2UnavailableError when L2 ${what}`, async () => {
      const token = await l2.issue('alice', { l1: SELF });
      await breakIt(l2);
      // A short deadline only where the deadline is what is tested; the default (5 s) elsewhere.
      const impatient = reason === 'timeout' ? createL1Kit({ l2: l2.url, self: SELF, timeoutMs: 200 }) : kit;
      const error = (await rejection(impatient.verify(token))) as L2UnavailableError;
      expect(error).to.be.instanceOf(L2UnavailableError);
      expect(error.status).to.equal(503);
      expect(error.code).to.equal('unavailable');
      expect(error.reason).to.equal(reason);
    });
  }

  it('fails closed when the answer names another L2 (l2_server is not the configured one)', async () => {
    const token = await l2.issue('alice', { l1: SELF });
    const misconfigured = createL1Kit({
      l2: l2.url.replace('127.0.0.1', 'localhost'),
      self: SELF,
      now: clock.now,
    });
    const error = (await rejection(misconfigured.verify(token))) as L2UnavailableError;
    expect(error.reason).to.equal('malformed');
    expect(l2.counts.verify).to.equal(1);
  });

  it('never caches an error: the next call asks L2 again', async () => {
    const token = await l2.issue('alice', { l1: SELF });
    l2.verifyMode = 'unavailable'; // no Retry-After
    expect(await rejection(kit.verify(token))).to.be.instanceOf(L2UnavailableError);
    l2.verifyMode = 'ok';
    expect((await kit.verify(token)).username).to.equal('alice');
    expect(l2.counts.verify).to.equal(2);
  });

  it("honours Retry-After: no request to L2 before it ends, and the 503 carries what's left", async () => {
    const token = await l2.issue('alice', { l1: SELF });
    l2.verifyMode = 'unavailable';
    l2.retryAfter = '5';
    const first = (await rejection(kit.verify(token))) as L2UnavailableError;
    expect(first.retryAfter).to.equal(5);
    expect(first.headers).to.deep.equal({ 'Retry-After': '5' });
    l2.verifyMode = 'ok';

    clock.advance(4);
    const second = (await rejection(kit.verify(token))) as L2UnavailableError;
    expect(second.reason).to.equal('backoff');
    expect(second.headers).to.deep.equal({ 'Retry-After': '1' });
    expect(l2.counts.verify).to.equal(1);

    clock.advance(1);
    expect((await kit.verify(token)).username).to.equal('alice');
    expect(l2.counts.verify).to.equal(2);
  });

  for (const [status, mode] of [
    [503, 'unavailable'],
    [429, 'rate_limited'],
  ] as const) {
    it(`pauses every verification for at most 30 s when L2 answers ${status} with Retry-After: 300`, async () => {
      const alice = await l2.issue('alice', { l1: SELF });
      const bob = await l2.issue('bob', { l1: SELF });
      l2.verifyMode = mode;
      l2.retryAfter = '300';
      const first = (await rejection(kit.verify(alice))) as L2UnavailableError;
      expect(first.headers).to.deep.equal({ 'Retry-After': '30' });
      l2.verifyMode = 'ok';

      clock.advance(29);
      const paused = (await rejection(kit.verify(bob))) as L2UnavailableError;
      expect(paused.reason).to.equal('backoff');
      expect(paused.headers).to.deep.equal({ 'Retry-After': '1' });
      expect(l2.counts.verify).to.equal(1);

      clock.advance(1);
      expect((await kit.verify(bob)).username).to.equal('bob');
      expect((await kit.verify(alice)).username).to.equal('alice');
      expect(l2.counts.verify).to.equal(3);
    });
  }

  it('reads Retry-After as an HTTP date too, capped at 30 s, or lower with maxRetryAfterSeconds', async () => {
    const token = await l2.issue('alice', { l1: SELF });
    l2.verifyMode = 'rate_limited';
    l2.retryAfter = new Date(clock.ms + 3600_000).toUTCString();
    expect(((await rejection(kit.verify(token))) as L2UnavailableError).retryAfter).to.equal(30);
    const lower = createL1Kit({ l2: l2.url, self: SELF, now: clock.now, maxRetryAfterSeconds: 10 });
    expect(((await rejection(lower.verify(token))) as L2UnavailableError).retryAfter).to.equal(10);
    l2.verifyMode = 'ok';
    clock.advance(10);
    expect((await lower.verify(token)).username).to.equal('alice');
  });

  it('refuses a configuration it cannot keep its promises with', () => {
    expect(() => createL1Kit({ l2: l2.url, self: SELF, cache: { positiveTtlSeconds: 61 } })).to.throw(
      RangeError,
    );
    expect(() => createL1Kit({ l2: l2.url, self: SELF, maxRetryAfterSeconds: 31 })).to.throw(RangeError);
    expect(() => createL1Kit({ l2: l2.url, self: 'ftp://render.test' })).to.throw(TypeError);
    expect(() => createL1Kit({ l2: l2.url, self: 'https://render.test/?x=1' })).to.throw(TypeError);
    expect(() => createL1Kit({ l2: 'not a url', self: SELF })).to.throw(TypeError);
    expect(createL1Kit({ l2: 'HTTPS://L2.Example:443/', self: 'https://R.Example/studio/' })).to.include({
      l2: 'https://l2.example',
      self: 'https://r.example/studio',
    });
  });
});
