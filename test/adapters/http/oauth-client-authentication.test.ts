// Client authentication, the introspection audience and RFC 7009 revocation (API.md §2.5) over real HTTP, for an L1
// server URL client: secrets refused rather than ignored, the caller's client as the audience, a session token
// never active for a client, and a client revoking only its own tokens.
import { expect } from 'chai';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { client, registerUser, request } from '../../support/http.js';
import {
  authorizeQuery,
  callbackOf,
  decide,
  exchange,
  pkce,
  signedInBrowser,
} from '../../support/sign-in-with-l2.js';
import type { TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer, STORES } from './helpers.js';

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(username)}:${encodeURIComponent(password)}`).toString('base64')}`;

for (const store of STORES) {
  describe(`OAuth client authentication, introspection audience and revocation (${store})`, () => {
    let server: TestServer;
    let l1: FakeL1Server;
    let other: FakeL1Server;
    let session: string;
    let scoped: string;

    const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      request('POST', `${server.url}${path}`, fields, { form: true, headers });
    const verify = async (token: string) =>
      (await client(server.url).post('/auth/verify', { token, l1_server: l1.url })).status;

    beforeEach(async () => {
      l1 = await new FakeL1Server().start();
      other = await new FakeL1Server().start();
      server = await startServer(store);
      session = await registerUser(server.url, 'alice', PASSWORD);
      scoped = (await client(server.url).post('/renderers/attach', { l1_server: l1.url }, { token: session }))
        .json.access_token as string;
    });
    afterEach(async () => {
      await server.close();
      await l1.stop();
      await other.stop();
    });

    describe('the token endpoint', () => {
      const code = async () => {
        const browser = await signedInBrowser(server.url, 'bob', PASSWORD);
        const { verifier, challenge } = pkce();
        const back = callbackOf(await decide(browser, authorizeQuery(l1.url, challenge), 'allow'));
        return {
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: `${l1.url}/auth/callback`,
          code_verifier: verifier,
        };
      };
      const bobsTokens = async () =>
        (await server.parts.store.issuedTokens.listActiveByUser('bob' as never, new Date())).filter(
          (t) => t.l1Server !== null,
        ).length;

      it('refuses a client_secret with 401 invalid_client instead of ignoring it, issuing nothing', async () => {
        const answer = await exchange(server.url, {
          ...(await code()),
          client_id: l1.url,
          client_secret: 's3cret',
        });
        expect(answer.status, answer.text).to.equal(401);
        expect(answer.json).to.include({ error: 'invalid_client' });
        expect(await bobsTokens()).to.equal(0);
      });

      it('refuses a Basic password, and takes a Basic username with an empty password as the client_id', async () => {
        const fields = await code();
        const refused = await post('/oauth/token', fields, { authorization: basic(l1.url, 'pw') });
        expect(refused.status, refused.text).to.equal(401);
        expect(refused.json).to.include({ error: 'invalid_client' });
        const taken = await post('/oauth/token', fields, { authorization: basic(l1.url, '') });
        expect(taken.status, taken.text).to.equal(200);
        expect(await bobsTokens()).to.equal(1);
      });

      it('refuses a client named twice, differently (body and Basic)', async () => {
        const answer = await post(
          '/oauth/token',
          { ...(await code()), client_id: l1.url },
          { authorization: basic(other.url, '') },
        );
        expect(answer.status, answer.text).to.equal(401);
        expect(await bobsTokens()).to.equal(0);
      });
    });

    describe('introspection: the audience is resource, else the client', () => {
      it('answers a scoped token active for its own client_id without resource, inactive for another', async () => {
        expect((await post('/oauth/introspect', { token: scoped, client_id: l1.url })).json).to.include({
          active: true,
          aud: l1.url,
        });
        expect((await post('/oauth/introspect', { token: scoped, client_id: other.url })).text).to.equal(
          '{"active":false}',
        );
      });

      it('answers a session token inactive for any client or resource, active only without an audience', async () => {
        const audiences: Record<string, string>[] = [
          { client_id: l1.url },
          { resource: l1.url },
          { resource: l1.url, client_id: l1.url },
        ];
        for (const fields of audiences) {
          const answer = await post('/oauth/introspect', { token: session, ...fields });
          expect(answer.text, JSON.stringify(fields)).to.equal('{"active":false}');
        }
        const json = await request('POST', `${server.url}/oauth/introspect`, {
          token: session,
          client_id: l1.url,
        });
        expect(json.text).to.equal('{"active":false}');
        expect((await post('/oauth/introspect', { token: session })).json.active).to.equal(true);
      });

      it('refuses a client_secret or a Basic password with 401 invalid_client', async () => {
        const secret = await post('/oauth/introspect', {
          token: scoped,
          client_id: l1.url,
          client_secret: 'x',
        });
        expect(secret.status, secret.text).to.equal(401);
        expect(secret.json).to.include({ error: 'invalid_client' });
        const password = await post(
          '/oauth/introspect',
          { token: scoped },
          { authorization: basic(l1.url, 'x') },
        );
        expect(password.status, password.text).to.equal(401);
        const empty = await post(
          '/oauth/introspect',
          { token: scoped },
          { authorization: basic(l1.url, '') },
        );
        expect(empty.json).to.include({ active: true, aud: l1.url });
      });
    });

    describe('POST /oauth/revoke (RFC 7009)', () => {
      it('revokes a token scoped to the calling client, record first and its notice after', async () => {
        const answer = await post('/oauth/revoke', {
          token: scoped,
          client_id: l1.url,
          token_type_hint: 'x',
        });
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.json).to.deep.equal({});
        expect(answer.headers.get('cache-control')).to.equal('no-store');
        expect(await verify(scoped)).to.equal(401);
        await l1.waitForNotices(1);
        expect(l1.notices[0]!.body).to.include({ username: 'alice' });
        // Again: already revoked, 200 and nothing more.
        expect((await post('/oauth/revoke', { token: scoped, client_id: l1.url })).status).to.equal(200);
      });

      it("refuses another client's token and a session token (400 unauthorized_client), revoking nothing", async () => {
        const foreign = await post('/oauth/revoke', { token: scoped, client_id: other.url });
        expect(foreign.status, foreign.text).to.equal(400);
        expect(foreign.json).to.include({ error: 'unauthorized_client' });
        const sessionToken = await post('/oauth/revoke', { token: session, client_id: l1.url });
        expect(sessionToken.status, sessionToken.text).to.equal(400);
        expect(sessionToken.json).to.include({ error: 'unauthorized_client' });
        expect(await verify(scoped)).to.equal(200);
        expect((await client(server.url).get('/auth/me', { token: session })).status).to.equal(200);
      });

      it('answers an unknown token 200 {}, and a caller naming no client or sending a secret 401 invalid_client', async () => {
        expect((await post('/oauth/revoke', { token: 'not.a.token', client_id: l1.url })).json).to.deep.equal(
          {},
        );
        const anonymous = await post('/oauth/revoke', { token: scoped });
        expect(anonymous.status, anonymous.text).to.equal(401);
        expect(anonymous.json).to.include({ error: 'invalid_client' });
        const secret = await post('/oauth/revoke', { token: scoped, client_id: l1.url, client_secret: 'x' });
        expect(secret.status).to.equal(401);
        expect(await verify(scoped)).to.equal(200);
      });
    });
  });
}
