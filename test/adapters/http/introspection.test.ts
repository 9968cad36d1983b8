// RFC 7662 introspection (API.md §2.2): active exactly when /auth/verify would accept the token from `resource`,
// `{"active": false}` and nothing else otherwise; a token that does not verify is refused past its address's budget
// of them (a token this service signed never is); closed when the store cannot answer.
import { expect } from 'chai';
import type { RevocationStore } from '../../../src/application/ports/revocation-store.js';
import { forgeToken, validClaims } from '../../support/forge.js';
import { client, registerUser, request } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, jwtPayload, PASSWORD, startServer, STORES } from './helpers.js';

const L1 = 'https://l1.example';

for (const store of STORES) {
  describe(`POST /oauth/introspect (${store})`, () => {
    let server: TestServer;
    let alice: string;
    let scoped: string;

    const introspect = (fields: Record<string, string>, json = false) =>
      request('POST', `${server.url}/oauth/introspect`, fields, { form: !json });

    describe('with a working store', () => {
      beforeEach(async () => {
        server = await startServer(store, { env: { INTROSPECTION_MAX_FAILURES_PER_ADDRESS: '5' } });
        alice = await registerUser(server.url, 'alice', PASSWORD);
        scoped = (await client(server.url).post('/renderers/attach', { l1_server: L1 }, { token: alice }))
          .json.access_token as string;
      });
      afterEach(() => server.close());

      it('answers a session token active with the claims RFC 7662 names, no aud or sid, never cached', async () => {
        const answer = await introspect({ token: alice });
        expect(answer.status).to.equal(200);
        expect(answer.headers.get('cache-control')).to.equal('no-store');
        const claims = jwtPayload(alice);
        expect(answer.json).to.deep.equal({
          active: true,
          sub: 'alice',
          username: 'alice',
          iss: server.config.publicUrl,
          exp: claims.exp,
          iat: claims.iat,
          jti: claims.jti,
          amr: ['pwd'],
          token_type: 'Bearer',
          l2_server: server.config.publicUrl,
        });
      });

      it('answers a scoped token active for its own L1 server (RFC 8707 resource), with aud and sid', async () => {
        const answer = await introspect({
          token: scoped,
          resource: 'https://L1.Example:443/',
          client_id: 'ignored',
        });
        expect(answer.json).to.include({ active: true, aud: L1, sid: jwtPayload(alice).jti, sub: 'alice' });
        // RFC 8176: the scoped token says how its session signed in.
        expect(answer.json.amr).to.deep.equal(['pwd']);
      });

      it('takes JSON as well as a form, and ignores parameters it does not use', async () => {
        expect((await introspect({ token: alice }, true)).json.active).to.equal(true);
        expect((await introspect({ token: alice, token_type_hint: 'access_token' })).json.active).to.equal(
          true,
        );
      });

      const inactive: [string, () => Record<string, string>][] = [
        ['a scoped token without resource', () => ({ token: scoped })],
        ['a scoped token for another resource', () => ({ token: scoped, resource: 'https://other.example' })],
        ['a resource that is no URL', () => ({ token: alice, resource: 'not a url' })],
        ['garbage', () => ({ token: 'not.a.token' })],
        ['an expired token', () => ({ token: forgeToken(validClaims({ iat: 1, exp: 2 })) })],
        [
          'a token of another L2',
          () => ({
            token: forgeToken(validClaims({ l2_server: 'https://x.example', iss: 'https://x.example' })),
          }),
        ],
      ];
      for (const [what, fields] of inactive) {
        it(`answers ${what} with {"active": false} and nothing else`, async () => {
          const answer = await introspect(fields());
          expect(answer.status).to.equal(200);
          expect(answer.text).to.equal('{"active":false}');
          expect(answer.headers.get('cache-control')).to.equal('no-store');
        });
      }

      it('answers active, then inactive once the token is logged out', async () => {
        expect((await introspect({ token: scoped, resource: L1 })).json.active).to.equal(true);
        await client(server.url).post('/auth/logout', {}, { token: alice });
        expect((await introspect({ token: scoped, resource: L1 })).text).to.equal('{"active":false}');
        expect((await introspect({ token: alice })).text).to.equal('{"active":false}');
      });

      it('answers a request without a token 400 invalid_request: a problem that OAuth libraries read too', async () => {
        const answer = await introspect({ resource: L1 });
        expectProblem(answer, 400, 'invalid_request');
        expect(answer.json).to.include({
          detail: 'token is required.',
          error: 'invalid_request',
          error_description: 'token is required.',
        });
      });

      it('refuses an address past its budget of tokens that do not verify with 429 and Retry-After, and still answers the tokens it signed', async () => {
        for (let i = 0; i < 5; i++)
          expect((await introspect({ token: `guess-${i}` })).json.active).to.equal(false);
        const limited = await introspect({ token: 'guess-5' });
        expectProblem(limited, 429, 'rate_limited');
        expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 900);
        // Tokens this service signed are never refused: active, or inactive and nothing else.
        expect((await introspect({ token: alice })).json.active).to.equal(true);
        expect((await introspect({ token: scoped, resource: L1 })).json.active).to.equal(true);
        expect((await introspect({ token: scoped })).text).to.equal('{"active":false}');
        expect((await introspect({ token: alice, resource: 'not a url' })).text).to.equal('{"active":false}');
        expect((await introspect({ token: forgeToken(validClaims({ iat: 1, exp: 2 })) })).text).to.equal(
          '{"active":false}',
        );
        // /auth/verify, which the budget is not about, still answers.
        expect((await client(server.url).post('/auth/verify', { token: alice })).status).to.equal(200);
      });

      it('spends nothing on tokens it signed, active or not', async () => {
        for (let i = 0; i < 20; i++) {
          expect((await introspect({ token: alice })).json.active).to.equal(true);
          expect((await introspect({ token: scoped })).json.active).to.equal(false);
        }
        for (let i = 0; i < 5; i++) await introspect({ token: `guess-${i}` });
        expectProblem(await introspect({ token: 'guess-5' }), 429, 'rate_limited');
      });
    });

    describe('an L1 server whose anonymous visitors send garbage (issue 33)', () => {
      beforeEach(async () => {
        // The default budget: 1,000 tokens that do not verify per address in 15 minutes.
        server = await startServer(store);
        alice = await registerUser(server.url, 'alice', PASSWORD);
        scoped = (await client(server.url).post('/renderers/attach', { l1_server: L1 }, { token: alice }))
          .json.access_token as string;
      });
      afterEach(() => server.close());

      it('still introspects a valid token as active after 1,000 garbage introspections from the same address', async function () {
        // A thousand requests: generous on a busy machine (it asserts answers, not time).
        this.timeout(120_000);
        // Ten at a time over keep-alive connections, as an L1 server passes its visitors' cookies on.
        for (let sent = 0; sent < 1000; sent += 10) {
          const answers = await Promise.all(
            Array.from({ length: 10 }, (_, i) => introspect({ token: `garbage-${sent + i}`, resource: L1 })),
          );
          for (const answer of answers) expect(answer.text).to.equal('{"active":false}');
        }
        expectProblem(await introspect({ token: 'garbage-1000', resource: L1 }), 429, 'rate_limited');

        const active = await introspect({ token: scoped, resource: L1 });
        expect(active.status).to.equal(200);
        expect(active.json).to.include({ active: true, sub: 'alice', aud: L1 });
        expect((await introspect({ token: alice }, true)).json).to.include({ active: true, sub: 'alice' });
        await client(server.url).post('/auth/logout', {}, { token: alice });
        expect((await introspect({ token: scoped, resource: L1 })).text).to.equal('{"active":false}');
      });
    });

    describe('when the revocation records cannot be read', () => {
      const broken: RevocationStore = {
        isRevoked: async () => {
          throw new Error('disk gone');
        },
        revoke: async () => 0,
        deleteExpired: async () => 0,
      };
      beforeEach(async () => {
        server = await startServer(store, {
          override: { store: (p) => ({ ...p.openedStore.persistence, revocations: broken }) },
        });
        alice = await registerUser(server.url, 'alice', PASSWORD);
      });
      afterEach(() => server.close());

      it('answers 503 unavailable, never active', async () => {
        const answer = await introspect({ token: alice });
        expectProblem(answer, 503, 'unavailable');
        expect(answer.text).not.to.include('"active":true');
        expect(answer.text).not.to.include('disk gone');
      });
    });
  });
}
