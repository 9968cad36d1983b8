import { expect } from 'chai';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { client, registerUser } from '../../support/http.js';
import { SoftAuthenticator } from '../../support/soft-authenticator.js';
import { TEST_PUBLIC_URL, type TestServer } from '../../support/test-server.js';
import { expectProblem, jwtPayload, PASSWORD, startServer, STORES } from './helpers.js';

for (const store of STORES) {
  describe(`passkeys over HTTP (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let clock: FixedClock;
    let alice: string;
    let phone: SoftAuthenticator;

    beforeEach(async () => {
      clock = new FixedClock(new Date());
      server = await startServer(store, { override: { clock: () => clock } });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      phone = new SoftAuthenticator(TEST_PUBLIC_URL);
    });
    afterEach(() => server?.close());

    /** Adds a passkey made by `authenticator` to the account of `token`. */
    async function addPasskey(token: string, authenticator: SoftAuthenticator, name = 'Phone') {
      const options = await api.post('/auth/passkeys/options', undefined, { token });
      expect(options.status, options.text).to.equal(200);
      const response = authenticator.register(options.json);
      return api.post('/auth/passkeys', { name, response, current_password: PASSWORD }, { token });
    }

    const signInOptions = async () => {
      const options = await api.post('/auth/login/passkey/options');
      expect(options.status, options.text).to.equal(200);
      return options.json;
    };
    const signIn = async (authenticator: SoftAuthenticator, which = 0) =>
      api.post('/auth/login/passkey', { response: authenticator.signIn(await signInOptions(), which) });

    it('offers registration options for a discoverable credential with user verification, on PUBLIC_URL’s host', async () => {
      const options = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      expect(options.rp).to.deep.include({ id: 'l2.test' });
      expect(options.user).to.deep.include({ name: 'alice' });
      expect(options.authenticatorSelection).to.deep.include({
        residentKey: 'required',
        userVerification: 'required',
      });
      expect(options.attestation).to.equal('none');
      expect(options.challenge).to.be.a('string').with.length.above(40);
      expect(options.timeout).to.equal(300_000);
    });

    it('adds a named passkey; the Account’s security lists it and the history says so', async () => {
      const added = await addPasskey(alice, phone, '  My   phone ');
      expect(added.status, added.text).to.equal(201);
      expect(added.json).to.deep.include({ name: 'My phone', kind: 'hwk', last_used_at: null });

      const security = (await api.get('/auth/security', { token: alice })).json;
      expect(security.passkeys).to.deep.equal([added.json]);
      expect(security.history[0]).to.deep.include({
        kind: 'passkey_added',
        detail: 'My phone',
        address: '127.0.0.1',
      });
    });

    it('signs in with the passkey alone — no username, no password — as both factors (hwk, mfa)', async () => {
      await addPasskey(alice, phone);
      const answer = await signIn(phone);

      expect(answer.status, answer.text).to.equal(200);
      expect(answer.json.username).to.equal('alice');
      expect(answer.json.amr).to.deep.equal(['hwk', 'mfa']);
      const token = answer.json.access_token as string;
      expect(jwtPayload(token).amr).to.deep.equal(['hwk', 'mfa']);
      expect((await api.post('/auth/verify', { token })).json.amr).to.deep.equal(['hwk', 'mfa']);
      expect((await api.get('/auth/me', { token })).json.token.amr).to.deep.equal(['hwk', 'mfa']);
      const used = (await api.get('/auth/security', { token })).json.passkeys[0];
      expect(used.last_used_at).to.equal(clock.now().toISOString());
    });

    it('says swk for a passkey that may be synced', async () => {
      const synced = new SoftAuthenticator(TEST_PUBLIC_URL, { backupEligible: true, counter: false });
      expect((await addPasskey(alice, synced)).json.kind).to.equal('swk');
      const answer = await signIn(synced);
      expect(answer.json.amr).to.deep.equal(['swk', 'mfa']);
      // Without a counter (always 0), each sign-in still needs a fresh challenge.
      expect((await signIn(synced)).status).to.equal(200);
    });

    it('uses a challenge once, and not after five minutes', async () => {
      await addPasskey(alice, phone);
      const response = phone.signIn(await signInOptions());
      expect((await api.post('/auth/login/passkey', { response })).status).to.equal(200);
      expectProblem(await api.post('/auth/login/passkey', { response }), 401, 'invalid_credentials');

      const late = phone.signIn(await signInOptions());
      clock.advance(5 * 60_000);
      expectProblem(await api.post('/auth/login/passkey', { response: late }), 401, 'invalid_credentials');
    });

    it('refuses a counter that did not move on (a cloned authenticator)', async () => {
      await addPasskey(alice, phone);
      expect((await signIn(phone)).status).to.equal(200);
      phone.credentials[0]!.counter = 0;
      expectProblem(await signIn(phone), 401, 'invalid_credentials');
    });

    it('refuses a passkey without user verification, when adding it and when signing in', async () => {
      const careless = new SoftAuthenticator(TEST_PUBLIC_URL, { userVerified: false });
      expectProblem(await addPasskey(alice, careless), 400, 'invalid_request');
      await addPasskey(alice, phone);
      const unverified = new SoftAuthenticator(TEST_PUBLIC_URL, { userVerified: false });
      unverified.credentials.push(phone.credentials[0]!);
      expectProblem(await signIn(unverified), 401, 'invalid_credentials');
    });

    it('refuses a response made for another origin', async () => {
      const phishing = new SoftAuthenticator('http://l2.test.evil.example');
      expectProblem(await addPasskey(alice, phishing), 400, 'invalid_request');
      await addPasskey(alice, phone);
      const lured = new SoftAuthenticator('http://l2.test.evil.example');
      lured.credentials.push(phone.credentials[0]!);
      expectProblem(await signIn(lured), 401, 'invalid_credentials');
    });

    it('never signs in as another account: bob’s passkey signs in as bob, and cannot pass for alice', async () => {
      const bob = await registerUser(server.url, 'bob');
      const bobsKey = new SoftAuthenticator(TEST_PUBLIC_URL);
      await addPasskey(alice, phone);
      await addPasskey(bob, bobsKey);

      expect((await signIn(bobsKey)).json.username).to.equal('bob');
      const alicesHandle = phone.credentials[0]!.userHandle;
      const forged = bobsKey.assert(bobsKey.credentials[0]!, (await signInOptions()).challenge, alicesHandle);
      expectProblem(await api.post('/auth/login/passkey', { response: forged }), 401, 'invalid_credentials');

      // Bob's passkey does not confirm a change of alice's account either.
      const confirmation = bobsKey.signIn(await signInOptions());
      expectProblem(
        await api.post('/auth/recovery-codes', { passkey: confirmation }, { token: alice }),
        401,
        'invalid_credentials',
      );
    });

    it('keeps a registration challenge to its account and its kind', async () => {
      const bob = await registerUser(server.url, 'bob');
      const options = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      const response = phone.register(options);
      expectProblem(
        await api.post(
          '/auth/passkeys',
          { name: 'Stolen', response, current_password: PASSWORD },
          { token: bob },
        ),
        401,
        'challenge_expired',
      );
      // A sign-in challenge is not a registration's.
      const signInChallenge = (await signInOptions()).challenge as string;
      const wrongKind = phone.register({ ...options, challenge: signInChallenge });
      expectProblem(
        await api.post(
          '/auth/passkeys',
          { name: 'X', response: wrongKind, current_password: PASSWORD },
          { token: alice },
        ),
        401,
        'challenge_expired',
      );
      expect((await api.get('/auth/security', { token: alice })).json.passkeys).to.deep.equal([]);
    });

    it('keeps one registration pending per account: asking again replaces the ceremony (no row per request)', async () => {
      const first = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      const second = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      const laptop = new SoftAuthenticator(TEST_PUBLIC_URL);
      expectProblem(
        await api.post(
          '/auth/passkeys',
          { name: 'Old', response: laptop.register(first), current_password: PASSWORD },
          { token: alice },
        ),
        401,
        'challenge_expired',
      );
      const added = await api.post(
        '/auth/passkeys',
        { name: 'New', response: phone.register(second), current_password: PASSWORD },
        { token: alice },
      );
      expect(added.status, added.text).to.equal(201);
    });

    it('asks for the password (or a passkey) to add one, counting a wrong password as a failed login', async () => {
      const options = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      const response = phone.register(options);
      expectProblem(
        await api.post(
          '/auth/passkeys',
          { name: 'Phone', response, current_password: 'wrong' },
          { token: alice },
        ),
        401,
        'invalid_credentials',
      );
      expectProblem(
        await api.post('/auth/passkeys', { name: 'Phone', response }, { token: alice }),
        400,
        'invalid_request',
      );
      expect((await api.get('/auth/security', { token: alice })).json.passkeys).to.deep.equal([]);
    });

    it('confirms a change with a passkey of the account instead of the password', async () => {
      await addPasskey(alice, phone);
      const laptop = new SoftAuthenticator(TEST_PUBLIC_URL);
      const options = (await api.post('/auth/passkeys/options', undefined, { token: alice })).json;
      const added = await api.post(
        '/auth/passkeys',
        { name: 'Laptop', response: laptop.register(options), passkey: phone.signIn(await signInOptions()) },
        { token: alice },
      );
      expect(added.status, added.text).to.equal(201);
      expect(
        (await api.get('/auth/security', { token: alice })).json.passkeys.map(
          (p: { name: string }) => p.name,
        ),
      ).to.deep.equal(['Phone', 'Laptop']);
    });

    it('removes a passkey: it signs in no more, the password still does, and another’s is 404', async () => {
      const added = (await addPasskey(alice, phone)).json;
      const bob = await registerUser(server.url, 'bob');
      expectProblem(
        await api.post(`/auth/passkeys/${added.id}/remove`, { current_password: PASSWORD }, { token: bob }),
        404,
        'not_found',
      );
      const removed = await api.post(
        `/auth/passkeys/${added.id}/remove`,
        { current_password: PASSWORD },
        { token: alice },
      );
      expect(removed.status, removed.text).to.equal(200);
      expect(removed.json).to.deep.equal({ removed: true });

      expectProblem(await signIn(phone), 401, 'invalid_credentials');
      expect((await api.post('/auth/login', { username: 'alice', password: PASSWORD })).status).to.equal(200);
      const history = (await api.get('/auth/security', { token: alice })).json.history;
      expect(history.map((e: { kind: string; detail: string }) => [e.kind, e.detail])).to.deep.equal([
        ['passkey_removed', 'Phone'],
        ['passkey_added', 'Phone'],
      ]);
    });

    it('lets a disabled account’s passkey sign in no more', async () => {
      await addPasskey(alice, phone);
      await server.parts.useCases.disableUser.execute('alice');
      expectProblem(await signIn(phone), 401, 'invalid_credentials');
    });

    it('refuses what is no WebAuthn response with 400 or 401, never 500', async () => {
      for (const response of [
        {},
        { id: 'x', response: {} },
        { id: 'x', response: { clientDataJSON: '!!' } },
        '{"a":1}',
        'not json',
      ])
        expect((await api.post('/auth/login/passkey', { response })).status).to.be.oneOf([400, 401]);
    });

    it('gives a scoped token the amr of its passkey session', async () => {
      await addPasskey(alice, phone);
      const session = (await signIn(phone)).json.access_token as string;
      const l1 = await new FakeL1Server().start();
      try {
        const scoped = (await api.post('/renderers/attach', { l1_server: l1.url }, { token: session })).json
          .access_token as string;
        const verified = await api.post('/auth/verify', { token: scoped, l1_server: l1.url });
        expect(verified.json.amr).to.deep.equal(['hwk', 'mfa']);
      } finally {
        await l1.stop();
      }
    });
  });
}

describe('passkey challenges per client address', () => {
  let server: TestServer;
  after(() => server?.close());

  it('answers 429 with Retry-After past PASSKEY_CHALLENGES_PER_ADDRESS a minute, storing nothing more', async () => {
    server = await startServer('sqlite', { env: { PASSKEY_CHALLENGES_PER_ADDRESS: '3' } });
    const api = client(server.url);
    for (let i = 0; i < 3; i++) expect((await api.post('/auth/login/passkey/options')).status).to.equal(200);
    const limited = await api.post('/auth/login/passkey/options');
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
  });
});
