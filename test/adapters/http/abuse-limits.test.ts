// Issue 16: what one client or one account may make the service do — scoped tokens never write, registrations are
// limited per address, asset writes per user.
import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { assetBody, createAsset, expectProblem, startServer, STORES, type Api } from './registry/support.js';
import { PASSWORD } from './helpers.js';

for (const store of STORES) {
  describe(`abuse limits (${store})`, () => {
    let server: TestServer;
    let api: Api;

    afterEach(() => server?.close());

    const activityCount = async () =>
      (await api.get('/activities', { headers: { accept: 'application/json' } })).json.total as number;

    describe('a token scoped to an L1 server', () => {
      let alice: string;
      let scoped: string;

      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice', PASSWORD);
        await createAsset(api, alice, 'sunset');
        scoped = (await api.post('/renderers/attach', { l1_server: 'https://l1.example' }, { token: alice }))
          .json.access_token;
      });

      it('cannot register, change or delete an asset: 403 forbidden, nothing written, no activity', async () => {
        const before = await activityCount();
        for (const response of [
          await api.post('/assets', assetBody('moonrise'), { token: scoped }),
          await api.send(
            'PATCH',
            '/assets/sunset',
            { description: 'changed by the L1 server' },
            { token: scoped },
          ),
          await api.send('DELETE', '/assets/sunset', undefined, { token: scoped }),
        ]) {
          const problem = expectProblem(response, 403, 'forbidden');
          expect(problem.detail).to.match(/scoped to an L1 server/);
        }
        expect(await activityCount()).to.equal(before);
        expect(
          (await api.get('/assets/moonrise', { headers: { accept: 'application/json' } })).status,
        ).to.equal(404);
        const sunset = (await api.get('/assets/sunset', { headers: { accept: 'application/json' } })).json;
        expect(sunset.description).to.equal('The asset sunset');
      });

      it('is refused before anything else is judged: even an invalid body gets 403, not 400', async () => {
        expectProblem(await api.post('/assets', { name: '' }, { token: scoped }), 403, 'forbidden');
      });

      it('still identifies the user to its L1 server, and the session token still writes', async () => {
        const verified = await api.post('/auth/verify', { token: scoped, l1_server: 'https://l1.example' });
        expect(verified.json).to.include({ valid: true, username: 'alice' });
        expect((await api.post('/assets', assetBody('moonrise'), { token: alice })).status).to.equal(201);
      });
    });

    describe('registrations per client address', () => {
      beforeEach(async () => {
        server = await startServer(store, { env: { REGISTRATIONS_PER_ADDRESS: '3', TRUST_PROXY: 'true' } });
        api = client(server.url);
      });

      const registerFrom = (address: string, username: string, password = PASSWORD) =>
        api.post('/auth/register', { username, password }, { headers: { 'x-forwarded-for': address } });

      it('answers 429 rate_limited with Retry-After once an address has registered 3 accounts in the hour', async () => {
        for (const name of ['user_a', 'user_b', 'user_c']) {
          expect((await registerFrom('198.51.100.1', name)).status).to.equal(201);
        }
        const limited = await registerFrom('198.51.100.1', 'user_d');
        expectProblem(limited, 429, 'rate_limited');
        const retryAfter = Number(limited.headers.get('retry-after'));
        expect(retryAfter).to.be.greaterThan(3000).and.at.most(3600);
        // Nothing was created: the name is still free for someone else.
        expect((await registerFrom('198.51.100.2', 'user_d')).status).to.equal(201);
      });

      it('does not count refused requests (invalid input, a taken name): they cost no hashing', async () => {
        expect((await registerFrom('198.51.100.1', 'user_a')).status).to.equal(201);
        for (let i = 0; i < 5; i++) {
          expect((await registerFrom('198.51.100.1', 'user_a')).status).to.equal(409);
          expect((await registerFrom('198.51.100.1', `x${i}`, 'short')).status).to.equal(400);
        }
        expect((await registerFrom('198.51.100.1', 'user_b')).status).to.equal(201);
        expect((await registerFrom('198.51.100.1', 'user_c')).status).to.equal(201);
        expectProblem(await registerFrom('198.51.100.1', 'user_e'), 429, 'rate_limited');
      });

      it('counts IPv6 clients per /48 (a site), and addresses with a port as the address', async () => {
        for (const [i, address] of [
          '2001:db8:1:1::1',
          '2001:db8:1:2::2',
          '[2001:db8:1:ff::3]:4431',
        ].entries()) {
          expect((await registerFrom(address, `six_${i}`)).status).to.equal(201);
        }
        expectProblem(await registerFrom('2001:db8:1:abcd::4', 'six_x'), 429, 'rate_limited');
        expect((await registerFrom('2001:db8:2::1', 'six_y')).status).to.equal(201);

        for (const [i, address] of ['203.0.113.5:1000', '203.0.113.5:2000', '203.0.113.5'].entries()) {
          expect((await registerFrom(address, `four_${i}`)).status).to.equal(201);
        }
        expectProblem(await registerFrom('203.0.113.5:3000', 'four_x'), 429, 'rate_limited');
      });

      it('shows a browser the registration form again with the message and status 429', async () => {
        for (const name of ['user_a', 'user_b', 'user_c']) {
          expect((await api.post('/auth/register', { username: name, password: PASSWORD })).status).to.equal(
            201,
          );
        }
        const browser = new FormBrowser(server.url);
        await browser.get('/register');
        const page = await browser.submit('/auth/register', { username: 'user_f', password: PASSWORD });
        expect(page.status).to.equal(429);
        expect(page.headers.get('retry-after')).to.match(/^\d+$/);
        expect(page.text).to.include('Too many accounts registered from your address');
        expect(page.text).to.match(/value="user_f"/);
      });
    });

    describe('asset writes per user', () => {
      let alice: string;
      let bob: string;

      beforeEach(async () => {
        server = await startServer(store, { env: { ASSET_WRITES_PER_USER: '3' } });
        api = client(server.url);
        alice = await registerUser(server.url, 'alice', PASSWORD);
        bob = await registerUser(server.url, 'bob', PASSWORD);
      });

      it('answers 429 rate_limited with Retry-After after 3 writes in the minute, creates, edits and deletes alike', async () => {
        await createAsset(api, alice, 'one');
        expect(
          (await api.send('PATCH', '/assets/one', { description: 'two' }, { token: alice })).status,
        ).to.equal(200);
        expect((await api.send('DELETE', '/assets/one', undefined, { token: alice })).status).to.equal(200);
        const before = await activityCount();

        const limited = await api.post('/assets', assetBody('four'), { token: alice });
        expectProblem(limited, 429, 'rate_limited');
        expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
        expectProblem(
          await api.send('PATCH', '/assets/one', { description: 'x' }, { token: alice }),
          410,
          'gone',
        );
        expect(await activityCount()).to.equal(before);
        expect((await api.get('/assets/four', { headers: { accept: 'application/json' } })).status).to.equal(
          404,
        );
      });

      it('spends the same budget on renderer attaches (each mints a token and may cost a notice)', async () => {
        for (const server of ['https://a.example', 'https://b.example', 'https://a.example']) {
          const attached = await api.post('/renderers/attach', { l1_server: server }, { token: alice });
          expect(attached.status, attached.text).to.equal(201);
        }
        expectProblem(
          await api.post('/renderers/attach', { l1_server: 'https://c.example' }, { token: alice }),
          429,
          'rate_limited',
        );
        expectProblem(await api.post('/assets', assetBody('late'), { token: alice }), 429, 'rate_limited');
        expect(
          (await api.get('/renderers', { token: alice, headers: { accept: 'application/json' } })).json.items,
        ).to.have.length(2);
      });

      it("does not spend one user's budget on another's writes", async () => {
        for (const name of ['a1', 'a2', 'a3']) await createAsset(api, alice, name);
        expectProblem(await api.post('/assets', assetBody('a4'), { token: alice }), 429, 'rate_limited');
        await createAsset(api, bob, 'b1');
      });

      it('does not count writes refused for their input (400, 409)', async () => {
        await createAsset(api, alice, 'taken');
        for (let i = 0; i < 4; i++) {
          expect((await api.post('/assets', assetBody('taken'), { token: alice })).status).to.equal(409);
          expect(
            (await api.post('/assets', assetBody('bad', { media_type: 'nope' }), { token: alice })).status,
          ).to.equal(400);
        }
        await createAsset(api, alice, 'second');
        await createAsset(api, alice, 'third');
        expectProblem(await api.post('/assets', assetBody('fourth'), { token: alice }), 429, 'rate_limited');
      });
    });
  });
}
