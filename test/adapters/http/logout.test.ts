import { expect } from 'chai';
import { forgeToken, validClaims } from '../../support/forge.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import {
  DAY_SECONDS,
  expectProblem,
  nowSeconds,
  PASSWORD,
  setCookies,
  startServer,
  STORES,
} from './helpers.js';

for (const store of STORES) {
  describe(`POST /auth/logout (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let alice: string;

    const logout = (token: string, body?: unknown) => api.post('/auth/logout', body, { token });
    const login = async (username: string) => {
      const response = await api.post('/auth/login', { username, password: PASSWORD });
      expect(response.status).to.equal(200);
      return response.json.access_token as string;
    };
    const attach = async (token: string, l1Server: string) => {
      const response = await api.post('/renderers/attach', { l1_server: l1Server }, { token });
      expect(response.status, response.text).to.equal(201);
      return response.json.access_token as string;
    };
    const verifyCode = async (token: string, l1Server?: string) => {
      const response = await api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
      return response.status === 200 ? 'valid' : (response.json.code as string);
    };

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice', PASSWORD);
    });
    afterEach(() => server.close());

    it('answers 200 {revoked: 1} and the token then fails /auth/verify with token_revoked', async () => {
      const response = await logout(alice);
      expect(response.status, response.text).to.equal(200);
      expect(response.json).to.deep.equal({ revoked: 1 });
      expect(response.headers.get('cache-control')).to.equal('no-store');
      expect(await verifyCode(alice)).to.equal('token_revoked');
    });

    it('clears the cookie: Set-Cookie l2_token= with Max-Age=0', async () => {
      const response = await logout(alice);
      const cookies = setCookies(response, 'l2_token');
      expect(cookies).to.have.length(1);
      expect(cookies[0]).to.match(/^l2_token=;/);
      expect(cookies[0]).to.match(/;\s*Max-Age=0(;|$)/);
      expect(cookies[0]).to.match(/;\s*Path=\/(;|$)/);
      expect(cookies[0]).to.match(/;\s*HttpOnly/i);
      expect(cookies[0]).to.match(/;\s*SameSite=Lax/i);
    });

    it('accepts {everywhere: false} and an empty JSON body like no body', async () => {
      const second = await login('alice');
      expect((await logout(alice, { everywhere: false })).json).to.deep.equal({ revoked: 1 });
      expect((await logout(second, {})).json).to.deep.equal({ revoked: 1 });
    });

    it('is harmless twice: the second logout with the same token answers 200 {revoked: 0}', async () => {
      await logout(alice);
      const again = await logout(alice);
      expect(again.status).to.equal(200);
      expect(again.json).to.deep.equal({ revoked: 0 });
    });

    it('counts a token once when it is logged out by 5 concurrent requests', async () => {
      const scoped = await attach(alice, 'https://a.example');
      const responses = await Promise.all(Array.from({ length: 5 }, () => logout(alice)));
      expect(responses.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
      const total = responses.reduce((sum, r) => sum + (r.json.revoked as number), 0);
      expect(total).to.equal(2);
      expect(await verifyCode(scoped, 'https://a.example')).to.equal('token_revoked');
    });

    it('leaves the revoked token unable to use the API (/auth/me, attach)', async () => {
      await logout(alice);
      expectProblem(await api.get('/auth/me', { token: alice }), 401, 'token_revoked');
      expectProblem(
        await api.post('/renderers/attach', { l1_server: 'https://l1.example' }, { token: alice }),
        401,
        'token_revoked',
      );
    });

    it('revokes the scoped tokens that session created (attach to two L1 servers → revoked 3)', async () => {
      const a = await attach(alice, 'https://a.example');
      const b = await attach(alice, 'https://b.example');
      expect(await verifyCode(a, 'https://a.example')).to.equal('valid');
      const response = await logout(alice);
      expect(response.json).to.deep.equal({ revoked: 3 });
      expect(await verifyCode(alice)).to.equal('token_revoked');
      expect(await verifyCode(a, 'https://a.example')).to.equal('token_revoked');
      expect(await verifyCode(b, 'https://b.example')).to.equal('token_revoked');
    });

    it("does not revoke another session of the same user, nor that session's scoped tokens", async () => {
      const other = await login('alice');
      const otherScoped = await attach(other, 'https://a.example');
      await attach(alice, 'https://a.example');
      await logout(alice);
      expect(await verifyCode(other)).to.equal('valid');
      expect(await verifyCode(otherScoped, 'https://a.example')).to.equal('valid');
    });

    it('revokes only the scoped token itself when a scoped token logs out', async () => {
      const scoped = await attach(alice, 'https://a.example');
      const response = await logout(scoped);
      expect(response.json).to.deep.equal({ revoked: 1 });
      expect(await verifyCode(scoped, 'https://a.example')).to.equal('token_revoked');
      expect(await verifyCode(alice)).to.equal('valid');
    });

    it('with {everywhere: true} revokes every unexpired token of the user (3 logins + 2 attaches)', async () => {
      const sessions = [await login('alice'), await login('alice'), await login('alice')];
      const scoped = [
        { token: await attach(sessions[0]!, 'https://a.example'), l1: 'https://a.example' },
        { token: await attach(sessions[1]!, 'https://b.example'), l1: 'https://b.example' },
      ];
      const response = await logout(sessions[2]!, { everywhere: true });
      expect(response.status).to.equal(200);
      // The registration token, 3 login tokens and 2 scoped tokens.
      expect(response.json).to.deep.equal({ revoked: 6 });
      for (const token of [alice, ...sessions]) expect(await verifyCode(token)).to.equal('token_revoked');
      for (const { token, l1 } of scoped) expect(await verifyCode(token, l1)).to.equal('token_revoked');
    });

    it("with {everywhere: true} leaves other users' tokens valid", async () => {
      const bob = await registerUser(server.url, 'bob');
      const bobScoped = await attach(bob, 'https://a.example');
      await logout(alice, { everywhere: true });
      expect(await verifyCode(bob)).to.equal('valid');
      expect(await verifyCode(bobScoped, 'https://a.example')).to.equal('valid');
    });

    it('refuses an everywhere flag that is not a boolean with 400 and revokes nothing', async () => {
      expectProblem(await logout(alice, { everywhere: 'yes please' }), 400, 'invalid_request');
      expect(await verifyCode(alice)).to.equal('valid');
    });

    it('answers 401 token_invalid to a garbage token', async () => {
      expectProblem(await logout('garbage'), 401, 'token_invalid');
      expectProblem(
        await logout(forgeToken(validClaims(), { secret: 'x'.repeat(40) })),
        401,
        'token_invalid',
      );
    });

    it('answers 401 token_expired to an expired token', async () => {
      const now = nowSeconds();
      const expired = forgeToken(validClaims({ iat: now - 31 * DAY_SECONDS, exp: now - DAY_SECONDS }));
      expectProblem(await logout(expired), 401, 'token_expired');
    });

    it('answers 401 unauthenticated without a token', async () => {
      const response = await api.post('/auth/logout');
      expectProblem(response, 401, 'unauthenticated');
      expect(response.headers.get('cache-control')).to.equal('no-store');
    });

    it('logs out by cookie with the X-CSRF-Token of a page rendered for that session (JSON request)', async () => {
      const page = await api.get('/', { headers: { accept: 'text/html', cookie: `l2_token=${alice}` } });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const csrfCookie = setCookies(page, 'l2_csrf')[0]?.split(';')[0] ?? '';
      expect(csrf).to.not.equal('');
      const response = await api.post('/auth/logout', undefined, {
        headers: { cookie: `${csrfCookie}; l2_token=${alice}`, 'x-csrf-token': csrf },
      });
      expect(response.status, response.text).to.equal(200);
      expect(response.json).to.deep.equal({ revoked: 1 });
      expect(await verifyCode(alice)).to.equal('token_revoked');
    });
  });
}
