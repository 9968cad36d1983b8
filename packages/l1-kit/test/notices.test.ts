import { expect } from 'chai';
import { SignJWT, generateKeyPair } from 'jose';
import { createL1Kit, type L1Kit, type LogoutNotice } from '../src/index.js';
import { routes } from '../src/adapters/node.js';
import { decode, sha256, StandInL2, TestClock } from './support/stand-in-l2.js';
import { gate, TestServer } from './support/servers.js';

describe('l1-kit notice receiver: signed revocation notices (OIDC back-channel logout tokens)', () => {
  let clock: TestClock;
  let l2: StandInL2;
  let l1: TestServer;
  let kit: L1Kit;
  let notices: LogoutNotice[];
  let hookFails: boolean;
  let hookGate: Promise<void> | undefined;
  let hookEntered: number;

  beforeEach(async () => {
    clock = new TestClock();
    l2 = await new StandInL2({ now: clock.now }).start();
    l1 = await new TestServer().start();
    notices = [];
    hookFails = false;
    hookGate = undefined;
    hookEntered = 0;
    kit = createL1Kit({ l2: l2.url, self: l1.url, now: clock.now });
    const handle = routes(kit, {
      onLogout: async (notice) => {
        hookEntered++;
        await hookGate;
        if (hookFails) throw new Error('the application could not drop the session');
        notices.push(notice);
      },
    });
    l1.handler = (req, res) => void handle(req, res).then((handled) => handled || res.writeHead(404).end());
  });
  afterEach(async () => {
    await l1.stop();
    await l2.stop();
  });

  const scopedToken = () => l2.issue('alice', { l1: l1.url, sid: 'session-1' });

  it('answers 204 to a notice L2 signed and calls the hook once, with what the notice says', async () => {
    const token = await scopedToken();
    l2.revoke(token);
    const body = await l2.notice(token);

    const delivery = await l2.deliver(l1.url, body);

    expect(delivery.status).to.equal(204);
    expect(notices).to.have.length(1);
    const claims = decode(body.logout_token as string);
    expect(notices[0]).to.deep.equal({
      username: 'alice',
      tokenHash: sha256(token),
      sid: 'session-1',
      jti: claims.jti,
      expiresAt: new Date((decode(token).exp as number) * 1000),
      issuer: l2.url,
      issuedAt: new Date((claims.iat as number) * 1000),
    });
    expect(l2.counts.metadata).to.equal(1);
    expect(l2.counts.jwks).to.equal(1);
  });

  it('reads expires_at as a NumericDate, as L2 signs it, and refuses any other form', async () => {
    const token = await scopedToken();
    const exp = decode(token).exp as number;
    for (const other of ['soon', new Date(exp * 1000).toISOString()]) {
      const bad = await l2.deliver(
        l1.url,
        await l2.notice(token, { claims: { expires_at: other, jti: other } }),
      );
      expect(bad.status, other).to.equal(400);
    }
    expect((await l2.deliver(l1.url, await l2.notice(token))).status).to.equal(204);
    expect(notices.map((n) => n.expiresAt?.getTime())).to.deep.equal([exp * 1000]);
  });

  it('refuses a replayed notice (same logout token) with 400 and does not call the hook again', async () => {
    const body = await l2.notice(await scopedToken());
    expect((await l2.deliver(l1.url, body)).status).to.equal(204);
    const replay = await l2.deliver(l1.url, body);
    expect(replay.status).to.equal(400);
    expect(JSON.parse(replay.body)).to.deep.include({ status: 400, code: 'invalid_request' });
    expect(notices).to.have.length(1);
  });

  it("acknowledges L2's redelivery of a handled notice (same jti, signed afresh) with 204: the hook runs once", async () => {
    const token = await scopedToken();
    const first = await l2.notice(token);
    expect((await l2.deliver(l1.url, first)).status).to.equal(204);
    clock.advance(60); // L2 did not get the answer, and retries with a new logout token for the same notice
    const again = await l2.notice(token);
    expect(decode(again.logout_token as string).jti).to.equal(decode(first.logout_token as string).jti);
    expect((await l2.deliver(l1.url, again)).status).to.equal(204);
    expect(notices).to.have.length(1);
  });

  it('answers 503 (L2 retries) to a notice signed with a key newer than its copy of the set, and calls no hook', async () => {
    const token = await scopedToken();
    expect((await l2.deliver(l1.url, await l2.notice(await scopedToken()))).status).to.equal(204);
    await l2.rotateNoticeKey(true); // published, but after the kit fetched the set moments ago
    const delivery = await l2.deliver(l1.url, await l2.notice(token));
    expect(delivery.status, delivery.body).to.equal(503);
    expect(delivery.headers.get('retry-after')).to.equal('30');
    expect(notices).to.have.length(1);
  });

  it('answers 500 when the hook throws, and handles the redelivery of that notice', async () => {
    const token = await scopedToken();
    hookFails = true;
    expect((await l2.deliver(l1.url, await l2.notice(token, { claims: { jti: 'n-1' } }))).status).to.equal(
      500,
    );
    hookFails = false;
    hookGate = undefined;
    hookEntered = 0;
    clock.advance(2);
    expect((await l2.deliver(l1.url, await l2.notice(token, { claims: { jti: 'n-1' } }))).status).to.equal(
      204,
    );
    expect(notices.map((n) => n.jti)).to.deep.equal(['n-1']);
  });

  it('answers 503 to a redelivery that arrives while the first delivery is still in the hook', async () => {
    const token = await scopedToken();
    const held = gate();
    hookGate = held.promise;
    const first = l2.deliver(l1.url, await l2.notice(token, { claims: { jti: 'slow-1' } }));
    while (hookEntered === 0) await new Promise((resolve) => setImmediate(resolve));

    const meanwhile = await l2.deliver(l1.url, await l2.notice(token, { claims: { jti: 'slow-1' } }));
    expect(meanwhile.status).to.equal(503); // L2 retries it later
    held.open();
    expect((await first).status).to.equal(204);
    expect((await l2.deliver(l1.url, await l2.notice(token, { claims: { jti: 'slow-1' } }))).status).to.equal(
      204,
    );
    expect(notices.map((n) => n.jti)).to.deep.equal(['slow-1']);
  });

  const forgeries: [string, RegExp, (token: string) => Promise<unknown>][] = [
    ['unsigned (no logout_token)', /not signed/, (t) => l2.notice(t, { withoutLogoutToken: true })],
    [
      "signed by another key under L2's kid",
      /SIGNATURE_VERIFICATION_FAILED/,
      async (t) => l2.notice(t, { key: (await generateKeyPair('ES256')).privateKey }),
    ],
    [
      'signed by another key under an unknown kid',
      /NO_MATCHING_KEY/,
      async (t) => l2.notice(t, { key: (await generateKeyPair('ES256')).privateKey, header: { kid: 'x' } }),
    ],
    ['alg: none', /ALG_NOT_ALLOWED/, (t) => l2.notice(t, { unsigned: true })],
    ['HS256 keyed with the public JWK (algorithm confusion)', /ALG_NOT_ALLOWED/, (t) => hs256Notice(t)],
    ['for another L1 server (aud)', /"aud"/, (t) => l2.notice(t, { claims: { aud: 'http://other.test' } })],
    [
      'from another issuer (iss)',
      /"iss"/,
      (t) => l2.notice(t, { claims: { iss: 'http://l2.impostor.test' } }),
    ],
    ['carrying a nonce', /nonce/, (t) => l2.notice(t, { claims: { nonce: 'n-0S6_WzA2Mj' } })],
    [
      'expired (exp passed)',
      /"exp" claim/,
      (t) => l2.notice(t, { claims: { iat: now() - 400, exp: now() - 280 } }),
    ],
    ['issued too long ago', /too far in the past/, (t) => l2.notice(t, { claims: { iat: now() - 3600 } })],
    ['issued in the future', /should be in the past/, (t) => l2.notice(t, { claims: { iat: now() + 3600 } })],
    ['without exp', /missing required "exp"/, (t) => l2.notice(t, { claims: { exp: undefined } })],
    ['without jti', /missing required "jti"/, (t) => l2.notice(t, { claims: { jti: undefined } })],
    ['of another type (typ: JWT)', /"typ"/, (t) => l2.notice(t, { header: { typ: 'JWT' } })],
    ['without typ', /"typ"/, (t) => l2.notice(t, { header: { typ: undefined } })],
    ['without the logout event', /logout event/, (t) => l2.notice(t, { claims: { events: { other: {} } } })],
    ['without events', /missing required "events"/, (t) => l2.notice(t, { claims: { events: undefined } })],
    ['without a token_hash', /token_hash/, (t) => l2.notice(t, { claims: { token_hash: undefined } })],
    [
      'whose logout_token is not a JWS',
      /JWS_INVALID/,
      async (t) => ({ ...(await l2.notice(t)), logout_token: 'not-a-jws' }),
    ],
  ];
  const now = () => Math.floor(clock.ms / 1000);
  async function hs256Notice(token: string) {
    const body = await l2.notice(token);
    const jwks = (await (await fetch(`${l2.url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    const claims = decode(body.logout_token as string);
    body.logout_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: l2.noticeKid, typ: 'logout+jwt' })
      .sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
    return body;
  }

  for (const [what, reason, forge] of forgeries) {
    it(`refuses a notice ${what} with 400 and never calls the hook`, async () => {
      const token = await scopedToken();
      const delivery = await l2.deliver(l1.url, await forge(token));
      expect(delivery.status, delivery.body).to.equal(400);
      const problem = JSON.parse(delivery.body) as { status: number; code: string; detail: string };
      expect(problem).to.deep.include({ status: 400, code: 'invalid_request' });
      expect(problem.detail).to.match(reason);
      expect(notices).to.deep.equal([]);
    });
  }

  it('refuses a body that is not a JSON object with 400', async () => {
    for (const body of ['nope', '[1,2]', '"token"']) {
      const response = await fetch(`${l1.url}/auth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body).to.equal(400);
    }
    expect(notices).to.deep.equal([]);
  });

  it("answers 503 (L2 retries) when L2's keys cannot be fetched, and calls no hook", async () => {
    const body = await l2.notice(await scopedToken());
    await l2.stop();
    const delivery = await fetch(`${l1.url}/auth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(delivery.status).to.equal(503);
    expect(notices).to.deep.equal([]);
  });

  it('fetches the key set once and keeps it, the way jose remote key sets do', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await l2.deliver(l1.url, await l2.notice(await scopedToken()))).status).to.equal(204);
    }
    expect(l2.counts.jwks).to.equal(1);
    expect(notices).to.have.length(3);
  });

  it('refuses notices signed for the L2 the kit was not configured with (metadata issuer mismatch): 503', async () => {
    l2.metadataOverrides = { issuer: 'http://l2.impostor.test' };
    const delivery = await l2.deliver(l1.url, await l2.notice(await scopedToken()));
    expect(delivery.status).to.equal(503);
    expect(notices).to.deep.equal([]);
  });

  it('takes the body from a parsed object, a string or bytes alike (receiver core)', async () => {
    const receiver = kit.noticeReceiver({ onLogout: (n) => void notices.push(n) });
    const forms = async (token: string): Promise<unknown[]> => {
      const body = await l2.notice(token);
      return [body, JSON.stringify(body), Buffer.from(JSON.stringify(body))];
    };
    const [asObject] = await forms(await scopedToken());
    const [, asString] = await forms(await scopedToken());
    const [, , asBytes] = await forms(await scopedToken());
    for (const body of [asObject, asString, asBytes])
      expect((await receiver.handle(body)).status).to.equal(204);
    expect(notices).to.have.length(3);
    receiver.close();
  });
});
