import { expect } from 'chai';
import { forgeToken, validClaims } from '../../support/forge.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, isoMillis, jwtPayload, keysOf, nowSeconds, startServer, STORES } from './helpers.js';

for (const store of STORES) {
  describe(`GET /auth/me (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let alice: string;

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
    });
    afterEach(() => server.close());

    it('answers 200 with the user and the presented token, l1_server null for a session token', async () => {
      const before = Date.now();
      const response = await api.get('/auth/me', { token: alice });
      expect(response.status, response.text).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      expect(keysOf(response.json)).to.deep.equal(['actor', 'created_at', 'l2_server', 'token', 'username']);
      expect(response.json).to.include({
        username: 'alice',
        actor: 'http://l2.test/users/alice',
        l2_server: 'http://l2.test',
      });
      expect(isoMillis(response.json.created_at)).to.be.at.most(before + 1000);
      const claims = jwtPayload(alice);
      expect(keysOf(response.json.token)).to.deep.equal([
        'amr',
        'expires_at',
        'issued_at',
        'jti',
        'l1_server',
      ]);
      expect(response.json.token).to.deep.equal({
        jti: claims.jti,
        issued_at: new Date(claims.iat * 1000).toISOString(),
        expires_at: new Date(claims.exp * 1000).toISOString(),
        l1_server: null,
        amr: ['pwd'],
      });
      expect(response.headers.get('cache-control')).to.equal('no-store');
    });

    it('describes a scoped token from /renderers/attach with its l1_server', async () => {
      const attach = await api.post(
        '/renderers/attach',
        { l1_server: 'https://L1.Example:443/' },
        { token: alice },
      );
      expect(attach.status, attach.text).to.equal(201);
      const scoped = attach.json.access_token as string;
      const response = await api.get('/auth/me', { token: scoped });
      expect(response.status).to.equal(200);
      expect(response.json.username).to.equal('alice');
      expect(response.json.token.l1_server).to.equal('https://l1.example');
      expect(response.json.token.jti).to.equal(jwtPayload(scoped).jti);
    });

    it('answers 401 unauthenticated with WWW-Authenticate: Bearer when no token is sent', async () => {
      const response = await api.get('/auth/me');
      expectProblem(response, 401, 'unauthenticated');
      expect(response.headers.get('www-authenticate')).to.match(/^Bearer\b/);
      expect(response.headers.get('cache-control')).to.equal('no-store');
    });

    it('answers 401 for a garbage bearer token', async () => {
      const response = await api.get('/auth/me', { token: 'not.a.jwt' });
      expect(response.status).to.equal(401);
      expect(response.json.code).to.equal('token_invalid');
      expect(response.text).to.not.include('alice');
    });

    it('challenges an invalid bearer token with WWW-Authenticate: Bearer (RFC 6750 §3, RFC 9110 §15.5.2)', async () => {
      const response = await api.get('/auth/me', { token: 'not.a.jwt' });
      expect(response.status).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.match(/^Bearer\b/);
    });

    it('answers 401 for a malformed Authorization header (no token, or another scheme)', async () => {
      for (const header of ['Bearer', 'Bearer ', 'Basic YWxpY2U6cGFzc3dvcmQ=', alice]) {
        const response = await api.get('/auth/me', { headers: { authorization: header } });
        expect(response.status, header).to.equal(401);
      }
    });

    it('answers 401 token_expired for an expired token', async () => {
      const now = nowSeconds();
      const expired = forgeToken(validClaims({ iat: now - 31 * 86400, exp: now - 86400 }));
      expectProblem(await api.get('/auth/me', { token: expired }), 401, 'token_expired');
    });

    it('answers 401 token_revoked after logout', async () => {
      expect((await api.post('/auth/logout', undefined, { token: alice })).status).to.equal(200);
      expectProblem(await api.get('/auth/me', { token: alice }), 401, 'token_revoked');
    });

    it('answers 401 for a correctly signed token of a user that does not exist', async () => {
      const response = await api.get('/auth/me', {
        token: forgeToken(validClaims({ sub: 'ghost', username: 'ghost' })),
      });
      expect(response.status).to.equal(401);
    });

    it('accepts the l2_token cookie', async () => {
      const response = await api.get('/auth/me', { headers: { cookie: `l2_token=${alice}` } });
      expect(response.status).to.equal(200);
      expect(response.json.username).to.equal('alice');
    });

    it('lets the bearer header win over the cookie', async () => {
      const bob = await registerUser(server.url, 'bob');
      const response = await api.get('/auth/me', { token: bob, headers: { cookie: `l2_token=${alice}` } });
      expect(response.status).to.equal(200);
      expect(response.json.username).to.equal('bob');
    });

    it('does not fall back to a valid cookie when the bearer token is invalid', async () => {
      const response = await api.get('/auth/me', {
        token: 'garbage',
        headers: { cookie: `l2_token=${alice}` },
      });
      expect(response.status).to.equal(401);
    });
  });
}
