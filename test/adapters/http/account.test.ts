// Accounts and sessions (issue 11): change the password, see and end sessions, delete the account — over the API
// and through the forms, on both stores, with a real L1 server receiving the notices.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { FormBrowser } from '../../support/browser.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, jwtPayload, keysOf, PASSWORD, setCookies, startServer, STORES } from './helpers.js';

const NEW_PASSWORD = 'a brand new passphrase';
const sha256Hex = (token: string) => createHash('sha256').update(token).digest('hex');
const JSON_ACCEPT = { accept: 'application/json' };

for (const store of STORES) {
  describe(`accounts and sessions (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let l1: FakeL1Server;

    const login = (username: string, password = PASSWORD) => api.post('/auth/login', { username, password });
    const loginOk = async (username: string, password = PASSWORD) => {
      const response = await login(username, password);
      expect(response.status, response.text).to.equal(200);
      return response.json.access_token as string;
    };
    const attach = async (token: string, l1Server = l1.url) => {
      const response = await api.post('/renderers/attach', { l1_server: l1Server }, { token });
      expect(response.status, response.text).to.equal(201);
      return response.json.access_token as string;
    };
    const verifyCode = async (token: string, l1Server?: string) => {
      const response = await api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
      return response.status === 200 ? 'valid' : (response.json.code as string);
    };
    const sessions = (token: string) => api.get('/auth/sessions', { token, headers: JSON_ACCEPT });
    const changePassword = (token: string, current: string, next: string) =>
      api.post('/auth/password', { current_password: current, new_password: next }, { token });

    beforeEach(async () => {
      l1 = await new FakeL1Server().start();
    });
    afterEach(async () => {
      await server?.close();
      await l1.stop();
    });

    describe('with default limits', () => {
      let alice: string;

      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice', PASSWORD);
      });

      describe('POST /auth/password', () => {
        it('keeps the asking session, revokes every other token of the user with notices, and the new password logs in', async () => {
          const otherL1 = await new FakeL1Server().start();
          const phone = await loginOk('alice');
          const scopedFromPhone = await attach(phone);
          const scopedFromHere = await attach(alice, otherL1.url);
          const bob = await registerUser(server.url, 'bob', PASSWORD);
          const bobScoped = await attach(bob);

          const response = await changePassword(alice, PASSWORD, NEW_PASSWORD);
          expect(response.status, response.text).to.equal(200);
          expect(response.json).to.deep.equal({ revoked: 3 });
          expect(response.headers.get('cache-control')).to.equal('no-store');

          expect(await verifyCode(alice)).to.equal('valid');
          expect(await verifyCode(phone)).to.equal('token_revoked');
          expect(await verifyCode(scopedFromPhone, l1.url)).to.equal('token_revoked');
          expect(await verifyCode(scopedFromHere, otherL1.url)).to.equal('token_revoked');
          expect(await verifyCode(bob)).to.equal('valid');
          expect(await verifyCode(bobScoped, l1.url)).to.equal('valid');

          // One notice per revoked scoped token, each to its own L1 server, naming that token.
          await Promise.all([l1.waitForNotices(1), otherL1.waitForNotices(1)]);
          await otherL1.stop();
          expect(l1.notices.map((notice) => [notice.body.username, notice.body.token_hash])).to.deep.equal([
            ['alice', sha256Hex(scopedFromPhone)],
          ]);
          expect(otherL1.notices.map((notice) => notice.body.token_hash)).to.deep.equal([
            sha256Hex(scopedFromHere),
          ]);

          expectProblem(await login('alice'), 401, 'invalid_credentials');
          expect((await login('alice', NEW_PASSWORD)).status).to.equal(200);
        });

        it('answers 401 invalid_credentials to a wrong current password and changes nothing', async () => {
          const phone = await loginOk('alice');
          expectProblem(
            await changePassword(alice, 'not my password', NEW_PASSWORD),
            401,
            'invalid_credentials',
          );
          expect(await verifyCode(phone)).to.equal('valid');
          expect((await login('alice')).status).to.equal(200);
        });

        it('applies the password rules to the new password (400, errors on new_password), NUL included', async () => {
          for (const next of ['short', 'x'.repeat(4097), 'abc\u0000defgh']) {
            const refused = expectProblem(
              await changePassword(alice, PASSWORD, next),
              400,
              'invalid_request',
            );
            expect(refused.errors.map((e: { path: string }) => e.path)).to.deep.equal(['new_password']);
          }
          expect((await login('alice')).status).to.equal(200);
        });

        it('hashes only the first 72 bytes of the new password, as at registration', async () => {
          const longPassword = 'é'.repeat(36);
          const changed = await changePassword(alice, PASSWORD, `${longPassword}X`);
          expect(changed.status, changed.text).to.equal(200);
          expect((await login('alice', `${longPassword}Y`)).status).to.equal(200);
          expectProblem(await login('alice', 'é'.repeat(35)), 401, 'invalid_credentials');
        });

        it('refuses a scoped token with 403 forbidden and a missing token with 401', async () => {
          const scoped = await attach(alice);
          expectProblem(await changePassword(scoped, PASSWORD, NEW_PASSWORD), 403, 'forbidden');
          expectProblem(
            await api.post('/auth/password', { current_password: PASSWORD, new_password: NEW_PASSWORD }),
            401,
            'unauthenticated',
          );
          expect((await login('alice')).status).to.equal(200);
        });

        it('changes the password from the Account page (303, notice shown) and shows a refusal on the page without echoing a password', async () => {
          const browser = new FormBrowser(server.url);
          await browser.get('/login');
          await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
          const page = await browser.get('/account');
          expect(page.status).to.equal(200);
          expect(page.headers.get('cache-control')).to.equal('private, no-store');
          expect(page.text).to.include('action="/auth/password"');
          expect(page.text).to.include('action="/auth/delete-account"');

          const refused = await browser.submit('/auth/password', {
            current_password: 'wrong guess 123',
            new_password: NEW_PASSWORD,
          });
          expect(refused.status).to.equal(401);
          expect(refused.text).to.include('The current password is wrong.');
          expect(refused.text).to.not.include('wrong guess 123');
          expect(refused.text).to.not.include(NEW_PASSWORD);

          const changed = await browser.submit('/auth/password', {
            current_password: PASSWORD,
            new_password: NEW_PASSWORD,
          });
          expect(changed.status).to.equal(303);
          expect(changed.headers.get('location')).to.equal('/account?changed=1');
          expect((await browser.get('/account?changed=1')).text).to.include('Your password was changed');
          expect(await verifyCode(alice)).to.equal('token_revoked');
        });
      });

      describe('GET /auth/sessions', () => {
        it('lists the unexpired, unrevoked tokens newest first, the asking one marked current', async () => {
          const phone = await loginOk('alice');
          const scoped = await attach(phone);
          const revokedLater = await loginOk('alice');
          await api.post('/auth/logout', undefined, { token: revokedLater });

          const response = await sessions(phone);
          expect(response.status, response.text).to.equal(200);
          expect(response.headers.get('cache-control')).to.equal('no-store');
          const items = response.json.items as Record<string, unknown>[];
          for (const item of items) {
            expect(keysOf(item)).to.deep.equal(['current', 'expires_at', 'issued_at', 'jti', 'l1_server']);
          }
          const jtiOf = (token: string) => jwtPayload(token).jti as string;
          expect(items.map((item) => item.jti)).to.have.members([jtiOf(alice), jtiOf(phone), jtiOf(scoped)]);
          expect(items).to.have.length(3);
          const issued = items.map((item) => Date.parse(item.issued_at as string));
          expect(issued).to.deep.equal([...issued].sort((a, b) => b - a));
          expect(items.filter((item) => item.current).map((item) => item.jti)).to.deep.equal([jtiOf(phone)]);
          expect(items.find((item) => item.jti === jtiOf(scoped))!.l1_server).to.equal(l1.url);
          expect(items.find((item) => item.jti === jtiOf(alice))!.l1_server).to.equal(null);
          const claims = jwtPayload(phone);
          const own = items.find((item) => item.jti === claims.jti)!;
          expect(Date.parse(own.expires_at as string)).to.equal(claims.exp * 1000);
        });

        it('refuses a scoped token (403) and answers 401 without one', async () => {
          expectProblem(await sessions(await attach(alice)), 403, 'forbidden');
          expectProblem(await api.get('/auth/sessions', { headers: JSON_ACCEPT }), 401, 'unauthenticated');
        });

        it('shows a browser a Sessions page, linked from the navigation, with an end button per row', async () => {
          await attach(alice);
          const page = await api.get('/auth/sessions', {
            headers: { cookie: `l2_token=${alice}`, accept: 'text/html' },
          });
          expect(page.status).to.equal(200);
          expect(page.headers.get('vary') ?? '').to.match(/Accept/);
          expect(page.text).to.match(/<a [^>]*href="\/auth\/sessions"[^>]*>Sessions<\/a>/);
          expect(page.text.match(/action="\/auth\/sessions\/[^"]+\/revoke"/g)).to.have.length(2);
          expect(page.text).to.include('this session');
          expect(page.text).to.not.include(alice);
        });

        it('sends a signed-out browser to the login form and back', async () => {
          const page = await api.get('/auth/sessions', { headers: { accept: 'text/html' } });
          expect(page.status).to.equal(303);
          expect(page.headers.get('location')).to.equal('/login?next=%2Fauth%2Fsessions');
        });
      });

      describe('POST /auth/sessions/{jti}/revoke', () => {
        const revoke = (token: string, jti: string) =>
          api.post(`/auth/sessions/${encodeURIComponent(jti)}/revoke`, undefined, { token });

        it('ends another session together with the scoped tokens it made, with notices', async () => {
          const phone = await loginOk('alice');
          const scoped = await attach(phone);
          const response = await revoke(alice, jwtPayload(phone).jti);
          expect(response.status, response.text).to.equal(200);
          expect(response.json).to.deep.equal({ revoked: 2 });
          expect(await verifyCode(phone)).to.equal('token_revoked');
          expect(await verifyCode(scoped, l1.url)).to.equal('token_revoked');
          expect(await verifyCode(alice)).to.equal('valid');
          await l1.waitForNotices(1);
          expect((await sessions(alice)).json.items).to.have.length(1);
        });

        it('ends one scoped token alone', async () => {
          const first = await attach(alice);
          const second = await attach(alice);
          expect((await revoke(alice, jwtPayload(first).jti)).json).to.deep.equal({ revoked: 1 });
          expect(await verifyCode(first, l1.url)).to.equal('token_revoked');
          expect(await verifyCode(second, l1.url)).to.equal('valid');
        });

        it("answers 404 for another user's jti or an unknown one, and revokes nothing", async () => {
          const bob = await registerUser(server.url, 'bob', PASSWORD);
          expectProblem(await revoke(alice, jwtPayload(bob).jti), 404, 'not_found');
          expectProblem(await revoke(alice, 'no-such-jti'), 404, 'not_found');
          expect(await verifyCode(bob)).to.equal('valid');
        });

        it('ends the session that asks, clearing its cookie', async () => {
          const response = await revoke(alice, jwtPayload(alice).jti);
          expect(response.json).to.deep.equal({ revoked: 1 });
          expect(setCookies(response, 'l2_token')[0]).to.match(/^l2_token=;/);
          expect(await verifyCode(alice)).to.equal('token_revoked');
        });

        it('refuses a scoped token with 403', async () => {
          const scoped = await attach(alice);
          expectProblem(await revoke(scoped, jwtPayload(alice).jti), 403, 'forbidden');
          expect(await verifyCode(alice)).to.equal('valid');
        });
      });

      describe('POST /auth/delete-account', () => {
        const remove = (token: string, password = PASSWORD) =>
          api.post('/auth/delete-account', { password }, { token });

        it('answers 401 to a wrong password and 403 to a scoped token, deleting nothing', async () => {
          expectProblem(await remove(alice, 'not my password'), 401, 'invalid_credentials');
          expectProblem(await remove(await attach(alice)), 403, 'forbidden');
          expect((await api.get('/users/alice', { headers: JSON_ACCEPT })).status).to.equal(200);
          expect(await verifyCode(alice)).to.equal('valid');
        });

        it('deletes the account: tokens revoked, assets deleted with Delete activities, 410 everywhere, the name kept', async () => {
          const scoped = await attach(alice);
          for (const name of ['sunset', 'moonrise']) {
            const created = await api.post(
              '/assets',
              { name, content_hash: `sha256:${'ab'.repeat(32)}`, media_type: 'image/png' },
              { token: alice },
            );
            expect(created.status, created.text).to.equal(201);
          }
          const bob = await registerUser(server.url, 'bob', PASSWORD);
          const usersBefore = (await api.get('/nodeinfo/2.1')).json.usage.users.total;

          const response = await remove(alice);
          expect(response.status, response.text).to.equal(200);
          expect(response.json).to.deep.equal({ deleted: true, username: 'alice', revoked: 2, assets: 2 });
          expect(response.headers.get('cache-control')).to.equal('no-store');

          expect(await verifyCode(alice)).to.equal('token_revoked');
          expect(await verifyCode(scoped, l1.url)).to.equal('token_revoked');
          await l1.waitForNotices(1);
          expectProblem(await login('alice'), 401, 'invalid_credentials');

          expectProblem(await api.get('/users/alice', { headers: JSON_ACCEPT }), 410, 'gone');
          const ap = await api.get('/users/alice', { headers: { accept: 'application/activity+json' } });
          expect(ap.status).to.equal(410);
          expect(JSON.parse(ap.text)).to.include({
            type: 'Tombstone',
            id: `${server.config.publicUrl}/users/alice`,
          });
          const html = await api.get('/users/alice', { headers: { accept: 'text/html' } });
          expect(html.status).to.equal(410);
          expect(html.text).to.include('deleted');
          const host = new URL(server.config.publicUrl).host;
          expect((await api.get(`/.well-known/webfinger?resource=acct:alice@${host}`)).status).to.equal(410);
          expect((await api.get('/users/alice/outbox', { headers: JSON_ACCEPT })).status).to.equal(410);

          expectProblem(
            await api.post('/auth/register', { username: 'alice', password: PASSWORD }),
            409,
            'username_taken',
          );
          const users = (await api.get('/users', { headers: JSON_ACCEPT })).json;
          expect(users.items.map((u: { username: string }) => u.username)).to.deep.equal(['bob']);
          expect(users.total).to.equal(1);
          expect((await api.get('/nodeinfo/2.1')).json.usage.users.total).to.equal(usersBefore - 1);

          for (const name of ['sunset', 'moonrise']) {
            expect((await api.get(`/assets/${name}`, { headers: JSON_ACCEPT })).status).to.equal(410);
          }
          const log = (await api.get('/activities', { headers: JSON_ACCEPT })).json.items as {
            idx: number;
            type: string;
            object: string;
          }[];
          expect(log.map((a) => a.idx)).to.deep.equal([3, 2, 1, 0]);
          expect(log.slice(0, 2).map((a) => a.type)).to.deep.equal(['Delete', 'Delete']);
          expect(
            log
              .slice(0, 2)
              .map((a) => a.object)
              .sort(),
          ).to.deep.equal(['moonrise', 'sunset']);
          expect(await verifyCode(bob)).to.equal('valid');
        });

        it('deletes from the Account page: 303 to /, cookie cleared', async () => {
          const browser = new FormBrowser(server.url);
          await browser.get('/login');
          await browser.submit('/auth/login', { username: 'alice', password: PASSWORD });
          await browser.get('/account');
          const done = await browser.submit('/auth/delete-account', { password: PASSWORD });
          expect(done.status).to.equal(303);
          expect(done.headers.get('location')).to.equal('/');
          expect(setCookies(done, 'l2_token')[0]).to.match(/^l2_token=;/);
          expect((await browser.get('/users/alice')).status).to.equal(410);
        });
      });
    });

    describe('with a login limit of 2 failures per username', () => {
      it('counts a wrong current password (and a wrong delete password) towards the login limit', async () => {
        server = await startServer(store, { env: { LOGIN_MAX_FAILURES_PER_USERNAME: '2' } });
        api = client(server.url);
        const alice = await registerUser(server.url, 'alice', PASSWORD);
        expectProblem(await changePassword(alice, 'wrong one', NEW_PASSWORD), 401, 'invalid_credentials');
        expectProblem(
          await api.post('/auth/delete-account', { password: 'wrong two' }, { token: alice }),
          401,
          'invalid_credentials',
        );
        const limited = await changePassword(alice, PASSWORD, NEW_PASSWORD);
        expectProblem(limited, 429, 'rate_limited');
        expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
        expectProblem(await login('alice'), 429, 'rate_limited');
      });
    });
  });
}
