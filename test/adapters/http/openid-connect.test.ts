// OpenID Connect on "Sign in with L2" over real HTTP (API.md §2.5): discovery, the ID-token key in the JWKS, scope,
// nonce, prompt and max_age, `iss` on every redirect, the ID token (verified with jose against the JWKS) and UserInfo.
import { expect } from 'chai';
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { FormBrowser } from '../../support/browser.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { client, request } from '../../support/http.js';
import {
  authorizeQuery,
  callbackOf,
  consentFields,
  decide,
  exchange,
  pkce,
  signedInBrowser,
} from '../../support/sign-in-with-l2.js';
import type { RevocationStore } from '../../../src/application/ports/revocation-store.js';
import { forgeToken, validClaims } from '../../support/forge.js';
import { createAsset } from './registry/support.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, jwtPayload, PASSWORD, startServer, STORES } from './helpers.js';

const OPENID = { scope: 'openid profile', nonce: 'n-0S6_WzA2Mj' };

for (const store of STORES) {
  describe(`OpenID Connect (API.md §2.5, ${store})`, () => {
    let server: TestServer;
    let l1: FakeL1Server;
    let clock: FixedClock;

    beforeEach(async () => {
      clock = new FixedClock(new Date());
      l1 = await new FakeL1Server().start();
      server = await startServer(store, { override: { clock: () => clock } });
    });
    afterEach(async () => {
      await server.close();
      await l1.stop();
    });

    const issuer = () => server.config.publicUrl;
    /** Alice's browser allows the request; the callback, the verifier and the token request that goes with it. */
    const allow = async (overrides: Record<string, string> = OPENID, browser?: FormBrowser) => {
      const signedIn = browser ?? (await signedInBrowser(server.url, 'alice', PASSWORD));
      const { verifier, challenge } = pkce();
      const query = authorizeQuery(l1.url, challenge, overrides);
      const back = callbackOf(await decide(signedIn, query, 'allow'));
      return { browser: signedIn, back, verifier, query };
    };
    const redeem = (back: URL, verifier: string) =>
      exchange(server.url, {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: `${l1.url}/auth/callback`,
        code_verifier: verifier,
        client_id: l1.url,
      });
    const verifyIdToken = async (idToken: string) => {
      const jwks = (await client(server.url).get('/.well-known/jwks.json')).json as { keys: JWK[] };
      return jwtVerify(idToken, createLocalJWKSet(jwks), {
        issuer: issuer(),
        audience: l1.url,
        algorithms: ['RS256'],
        currentDate: clock.now(),
      });
    };
    const sessionOf = (browser: FormBrowser) => jwtPayload(browser.cookie('l2_token')!);
    /** The redirect's parameters, for a 303 back to the L1 server. */
    const paramsOf = (response: { status: number; headers: Headers; text: string }) =>
      Object.fromEntries(callbackOf(response as never).searchParams);

    describe('discovery', () => {
      it('answers /.well-known/openid-configuration with the §2.1 document, which lists every §2.5 value', async () => {
        const oidc = await client(server.url).get('/.well-known/openid-configuration');
        const oauth = await client(server.url).get('/.well-known/oauth-authorization-server');
        expect(oidc.status).to.equal(200);
        expect(oidc.headers.get('access-control-allow-origin')).to.equal('*');
        expect(oidc.json).to.deep.equal(oauth.json);
        const base = issuer();
        expect(oidc.json).to.deep.include({
          issuer: base,
          userinfo_endpoint: `${base}/oauth/userinfo`,
          revocation_endpoint: `${base}/oauth/revoke`,
          end_session_endpoint: `${base}/oauth/logout`,
          scopes_supported: ['openid', 'profile', 'l1'],
          response_modes_supported: ['query'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
          introspection_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
          revocation_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
          token_endpoint_auth_signing_alg_values_supported: ['ES256', 'RS256'],
          introspection_endpoint_auth_signing_alg_values_supported: ['ES256', 'RS256'],
          revocation_endpoint_auth_signing_alg_values_supported: ['ES256', 'RS256'],
          prompt_values_supported: ['none', 'login', 'consent'],
          authorization_response_iss_parameter_supported: true,
          claims_parameter_supported: false,
          request_parameter_supported: false,
          request_uri_parameter_supported: false,
          frontchannel_logout_supported: false,
          backchannel_logout_supported: true,
          backchannel_logout_session_supported: true,
          client_id_metadata_document_supported: true,
        });
        expect(oidc.json.claims_supported).to.have.members([
          'sub', 'iss', 'aud', 'azp', 'exp', 'iat', 'auth_time', 'nonce', 'amr', 'sid',
          'preferred_username', 'name', 'picture', 'profile',
        ]); // prettier-ignore
      });

      it('publishes the ID-token key in the JWKS (RS256, kid = its RFC 7638 thumbprint) beside the notice key', async () => {
        const { keys } = (await client(server.url).get('/.well-known/jwks.json')).json as { keys: JWK[] };
        const rsa = keys.filter((key) => key.kty === 'RSA');
        const ec = keys.filter((key) => key.kty === 'EC');
        expect(rsa).to.have.length(1);
        expect(ec).to.have.length(1);
        expect(rsa[0]).to.have.keys(['kty', 'n', 'e', 'kid', 'use', 'alg']);
        expect(rsa[0]).to.include({ use: 'sig', alg: 'RS256' });
        expect(rsa[0]!.kid).to.equal(await calculateJwkThumbprint(rsa[0]!));
        expect(rsa[0]!.kid).to.not.equal(ec[0]!.kid);
      });

      it("lists the OpenID issuer in every user's WebFinger JRD, and keeps it under a rel= filter naming it", async () => {
        await signedInBrowser(server.url, 'alice', PASSWORD);
        const rel = 'http://openid.net/specs/connect/1.0/issuer';
        const domain = new URL(issuer()).host;
        for (const query of [
          `resource=acct:alice@${domain}`,
          `resource=acct:alice@${domain}&rel=${encodeURIComponent(rel)}`,
        ]) {
          const jrd = await client(server.url).get(`/.well-known/webfinger?${query}`);
          expect(jrd.status, jrd.text).to.equal(200);
          expect(jrd.json.links).to.deep.include({ rel, href: issuer() });
        }
      });
    });

    describe('the code flow with openid', () => {
      it('issues an RS256 ID token with the §2.5 claims, which jose verifies against the JWKS', async () => {
        const { browser, back, verifier } = await allow();
        expect(back.searchParams.get('iss')).to.equal(issuer());
        const answer = await redeem(back, verifier);
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.json.scope).to.equal('openid profile l1');
        const { payload, protectedHeader } = await verifyIdToken(answer.json.id_token);
        const session = sessionOf(browser);
        expect(protectedHeader).to.deep.equal({
          alg: 'RS256',
          typ: 'JWT',
          kid: protectedHeader.kid,
        });
        expect(payload).to.deep.equal({
          iss: issuer(),
          sub: 'alice',
          aud: l1.url,
          azp: l1.url,
          iat: payload.iat,
          exp: payload.exp,
          auth_time: session.iat,
          nonce: OPENID.nonce,
          amr: ['pwd'],
          sid: session.jti,
          preferred_username: 'alice',
          name: 'alice',
          profile: `${issuer()}/users/alice`,
        });
        expect(payload.exp! - payload.iat!)
          .to.be.at.most(600)
          .and.above(0);
        // The access token names the granted scope, and its sid is the ID token's.
        const access = jwtPayload(answer.json.access_token);
        expect(access).to.include({ scope: 'openid profile l1', sid: session.jti, l1_server: l1.url });
      });

      it('leaves out the profile claims and the nonce when neither was asked for', async () => {
        const { back, verifier } = await allow({ scope: 'openid' });
        const answer = await redeem(back, verifier);
        expect(answer.json.scope).to.equal('openid l1');
        const { payload } = await verifyIdToken(answer.json.id_token);
        expect(payload).to.not.have.any.keys('nonce', 'name', 'preferred_username', 'picture', 'profile');
      });

      it('answers a request without openid as §2.3 did: no ID token, scope l1 — but with iss', async () => {
        const { back, verifier } = await allow({});
        expect(back.searchParams.get('iss')).to.equal(issuer());
        const answer = await redeem(back, verifier);
        expect(answer.json).to.not.have.property('id_token');
        expect(answer.json.scope).to.equal('l1');
        expect(jwtPayload(answer.json.access_token).scope).to.equal('l1');
      });

      it('carries every parameter through the consent form, and says that the name and picture are shared', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const { challenge } = pkce();
        const page = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, challenge, OPENID)}`);
        expect(page.text).to.contain('display name and picture are shared');
        expect(consentFields(page.text)).to.include({ scope: 'openid profile', nonce: OPENID.nonce });
        const plain = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, challenge)}`);
        expect(plain.text).to.not.contain('display name and picture are shared');
      });

      it('sends Deny back with error_description, state and iss', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const { challenge } = pkce();
        const denied = await decide(
          browser,
          authorizeQuery(l1.url, challenge, { ...OPENID, state: 's-1' }),
          'deny',
        );
        const params = paramsOf(denied);
        expect(params).to.include({ error: 'access_denied', state: 's-1', iss: issuer() });
        expect(params.error_description).to.be.a('string').and.not.equal('');
      });

      for (const [name, overrides, error] of [
        ['a nonce over 512 characters', { nonce: 'n'.repeat(513) }, 'invalid_request'],
        ['prompt=none with another value', { prompt: 'none login' }, 'invalid_request'],
        ['a negative max_age', { max_age: '-1' }, 'invalid_request'],
        ['a max_age that is no number', { max_age: '1e3' }, 'invalid_request'],
        ['response_mode=fragment', { response_mode: 'fragment' }, 'invalid_request'],
        ['a request object', { request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
        ['a request_uri', { request_uri: 'https://l1.example/r' }, 'request_uri_not_supported'],
      ] as const) {
        it(`sends ${name} back to the client as ${error} (with iss), and issues nothing`, async () => {
          const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
          const { challenge } = pkce();
          const query = authorizeQuery(l1.url, challenge, { ...OPENID, state: 's-2', ...overrides });
          const answer = await browser.get(`/oauth/authorize?${query}`);
          expect(paramsOf(answer)).to.include({ error, state: 's-2', iss: issuer() });
          expect(callbackOf(answer).origin).to.equal(l1.url);
          expect((await client(server.url).get('/renderers', { headers: { cookie: browser.cookieHeader(), accept: 'application/json' } })).json.items).to.deep.equal([]); // prettier-ignore
        });
      }

      it('refuses a parameter given twice with invalid_request', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const { challenge } = pkce();
        const query = `${authorizeQuery(l1.url, challenge, OPENID)}&nonce=again`;
        expect(paramsOf(await browser.get(`/oauth/authorize?${query}`))).to.include({
          error: 'invalid_request',
          iss: issuer(),
        });
      });

      it('still shows an error page, never a redirect, for a redirect_uri outside the client', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const { challenge } = pkce();
        const query = authorizeQuery(l1.url, challenge, {
          ...OPENID,
          prompt: 'none',
          redirect_uri: 'https://evil.example/cb',
        });
        const page = await browser.get(`/oauth/authorize?${query}`);
        expect(page.status).to.equal(400);
        expect(page.headers.get('location')).to.equal(null);
      });
    });

    it('a long request (state of 1,024 characters, nonce of 512) goes through a signed-out sign-in and consent, and back with its state', async () => {
      await signedInBrowser(server.url, 'alice', PASSWORD);
      const browser = new FormBrowser(server.url);
      const state = 'a/b='.repeat(256);
      const { challenge } = pkce();
      const query = authorizeQuery(l1.url, challenge, { ...OPENID, state, nonce: 'n'.repeat(512) });
      expect(query.length).to.be.above(2048);
      const asked = await browser.get(`/oauth/authorize?${query}`);
      expect(asked.status, asked.text).to.equal(303);
      const login = asked.headers.get('location')!;
      expect((await browser.get(login)).status).to.equal(200);
      const next = new URL(login, server.url).searchParams.get('next')!;
      const signedIn = await browser.submit('/auth/login', { username: 'alice', password: PASSWORD, next });
      expect(signedIn.headers.get('location')).to.equal(next);
      const page = await browser.get(next);
      expect(page.status, page.text).to.equal(200);
      const back = callbackOf(
        await browser.submit('/oauth/authorize', { ...consentFields(page.text), decision: 'allow' }),
      );
      expect(back.searchParams.get('state')).to.equal(state);
      expect(back.searchParams.get('code')).to.be.a('string');
    });

    describe('prompt and max_age', () => {
      it('prompt=none, signed out: login_required, no page', async () => {
        const { challenge } = pkce();
        const query = authorizeQuery(l1.url, challenge, { ...OPENID, prompt: 'none', state: 's-3' });
        const answer = await new FormBrowser(server.url).get(`/oauth/authorize?${query}`);
        expect(paramsOf(answer)).to.include({ error: 'login_required', state: 's-3', iss: issuer() });
      });

      it('prompt=none, signed in, client never allowed: consent_required', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const { challenge } = pkce();
        const answer = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, challenge, { ...OPENID, prompt: 'none' })}`); // prettier-ignore
        expect(paramsOf(answer)).to.include({ error: 'consent_required', iss: issuer() });
      });

      it('prompt=none, client allowed before: a code at once, whose ID token carries the new nonce', async () => {
        const { browser } = await allow();
        const { verifier, challenge } = pkce();
        const query = authorizeQuery(l1.url, challenge, { scope: 'openid', prompt: 'none', nonce: 'second' });
        const back = callbackOf(await browser.get(`/oauth/authorize?${query}`));
        expect(back.searchParams.get('iss')).to.equal(issuer());
        const answer = await redeem(back, verifier);
        expect((await verifyIdToken(answer.json.id_token)).payload.nonce).to.equal('second');
      });

      it('prompt=none after the client was detached: consent_required again', async () => {
        const { browser } = await allow();
        const detached = await browser.submit('/renderers/detach', { l1_server: l1.url });
        expect(detached.status, detached.text).to.equal(303);
        const { challenge } = pkce();
        const answer = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, challenge, { ...OPENID, prompt: 'none' })}`); // prettier-ignore
        expect(paramsOf(answer)).to.include({ error: 'consent_required' });
      });

      it('prompt=none with a session older than max_age: login_required', async () => {
        const { browser } = await allow();
        clock.advance(120_000);
        const { challenge } = pkce();
        const query = authorizeQuery(l1.url, challenge, { ...OPENID, prompt: 'none', max_age: '60' });
        expect(paramsOf(await browser.get(`/oauth/authorize?${query}`))).to.include({
          error: 'login_required',
        });
      });

      for (const fresh of [{ prompt: 'login' }, { max_age: '0' }, { max_age: '60' }] as Record<
        string,
        string
      >[]) {
        it(`${new URLSearchParams(fresh)}: signs in again first, and the ID token is that sign-in's`, async () => {
          const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
          const first = sessionOf(browser);
          clock.advance(120_000);
          const { verifier, challenge } = pkce();
          const query = authorizeQuery(l1.url, challenge, { ...OPENID, ...fresh });
          const asked = await browser.get(`/oauth/authorize?${query}`);
          expect(asked.status).to.equal(303);
          const login = asked.headers.get('location')!;
          expect(login).to.match(/^\/login\?next=%2Foauth%2Fauthorize%3F.*&again=1$/);

          // The decision cannot be posted with the old session either: it sends the browser to sign in too.
          await browser.get('/renderers'); // a page (and its CSRF token) rendered for this session
          const posted = await browser.submit('/oauth/authorize', {
            ...Object.fromEntries(new URLSearchParams(query)),
            decision: 'allow',
          });
          expect(posted.status, posted.text).to.equal(303);
          expect(posted.headers.get('location')).to.match(/^\/login\?next=/);

          const loginPage = await browser.get(login);
          expect(loginPage.status).to.equal(200);
          const next = new URL(login, server.url).searchParams.get('next')!;
          const signedIn = await browser.submit('/auth/login', {
            username: 'alice',
            password: PASSWORD,
            next,
          });
          expect(signedIn.status, signedIn.text).to.equal(303);
          expect(signedIn.headers.get('location')).to.equal(next);
          const second = sessionOf(browser);
          expect(second.iat).to.be.above(first.iat);

          const page = await browser.get(next);
          expect(page.status, page.text).to.equal(200);
          const back = callbackOf(
            await browser.submit('/oauth/authorize', { ...consentFields(page.text), decision: 'allow' }),
          );
          const answer = await redeem(back, verifier);
          const { payload } = await verifyIdToken(answer.json.id_token);
          expect(payload).to.include({ auth_time: second.iat, sid: second.jti });
        });
      }

      it('max_age with a session young enough: the consent page at once', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        clock.advance(30_000);
        const { challenge } = pkce();
        const page = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, challenge, { ...OPENID, max_age: '60' })}`); // prettier-ignore
        expect(page.status).to.equal(200);
      });

      it('does not let an older sign-in count because a link carries a forged or moved mark', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        clock.advance(120_000);
        const { challenge } = pkce();
        const query = authorizeQuery(l1.url, challenge, { ...OPENID, prompt: 'login' });
        for (const mark of ['0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '1']) {
          const answer = await browser.get(`/oauth/authorize?${query}&l2_signed_in_after=${mark}`);
          expect(answer.status).to.equal(303);
          expect(answer.headers.get('location')).to.match(/^\/login\?/);
        }
      });
    });

    describe('UserInfo', () => {
      const tokenFor = async (overrides: Record<string, string> = OPENID, signedIn?: FormBrowser) => {
        const { back, verifier, browser } = await allow(overrides, signedIn);
        return { token: (await redeem(back, verifier)).json.access_token as string, browser };
      };

      it('answers GET with Bearer and POST with the form field: sub and the profile claims, no-store', async () => {
        const { token } = await tokenFor();
        const expected = {
          sub: 'alice',
          preferred_username: 'alice',
          name: 'alice',
          profile: `${issuer()}/users/alice`,
        };
        const get = await client(server.url).get('/oauth/userinfo', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(get.status, get.text).to.equal(200);
        expect(get.headers.get('cache-control')).to.equal('no-store');
        expect(get.json).to.deep.equal(expected);
        const post = await request(
          'POST',
          `${server.url}/oauth/userinfo`,
          { access_token: token },
          { form: true },
        );
        expect(post.status, post.text).to.equal(200);
        expect(post.json).to.deep.equal(expected);
      });

      it('names the display name and the avatar picture, in the ID token and in UserInfo', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const session = browser.cookie('l2_token')!;
        const api = client(server.url);
        await createAsset(api, session, 'face', { url: 'https://cdn.example/face.png' });
        const patched = await api.send('PATCH', '/users/alice', { display_name: 'Alice L.', avatar: 'face' }, { token: session }); // prettier-ignore
        expect(patched.status, patched.text).to.equal(200);
        const { back, verifier } = await allow(OPENID, browser);
        const answer = await redeem(back, verifier);
        const expected = { name: 'Alice L.', picture: 'https://cdn.example/face.png' };
        expect((await verifyIdToken(answer.json.id_token)).payload).to.include(expected);
        const info = await api.get('/oauth/userinfo', { headers: { authorization: `Bearer ${answer.json.access_token}` } }); // prettier-ignore
        expect(info.json).to.include(expected);
      });

      it('answers only sub without profile', async () => {
        const { token } = await tokenFor({ scope: 'openid' });
        const get = await client(server.url).get('/oauth/userinfo', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(get.json).to.deep.equal({ sub: 'alice' });
      });

      it('refuses a token sent both ways with 400 invalid_request', async () => {
        const { token } = await tokenFor();
        const both = await request(
          'POST',
          `${server.url}/oauth/userinfo`,
          { access_token: token },
          { form: true, headers: { authorization: `Bearer ${token}` } },
        );
        expectProblem(both, 400, 'invalid_request');
      });

      it('asks for a token with 401 and WWW-Authenticate: Bearer', async () => {
        const none = await client(server.url).get('/oauth/userinfo');
        expectProblem(none, 401, 'unauthenticated');
        expect(none.headers.get('www-authenticate')).to.equal('Bearer');
      });

      it('refuses a session token, a token without openid, a revoked token and garbage as invalid_token', async () => {
        const { token, browser } = await tokenFor();
        const { token: plain } = await tokenFor({}, browser);
        const session = browser.cookie('l2_token')!;
        const refused = async (candidate: string, code: string) => {
          const answer = await client(server.url).get('/oauth/userinfo', {
            headers: { authorization: `Bearer ${candidate}` },
          });
          expectProblem(answer, 401, code);
          expect(answer.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
        };
        await refused(session, 'token_invalid');
        await refused(plain, 'token_invalid');
        await refused('not-a-token', 'token_invalid');
        const detached = await browser.submit('/renderers/detach', { l1_server: l1.url });
        expect(detached.status).to.equal(303);
        await refused(token, 'token_revoked');
      });

      it('has the header the ID token names', async () => {
        const { back, verifier } = await allow();
        const { id_token } = (await redeem(back, verifier)).json;
        const { keys } = (await client(server.url).get('/.well-known/jwks.json')).json as { keys: JWK[] };
        expect(keys.map((key) => key.kid)).to.include(decodeProtectedHeader(id_token).kid);
      });
    });
  });

  describe(`UserInfo when the revocation records cannot be read (${store})`, () => {
    const brokenRevocations: RevocationStore = {
      isRevoked: async () => {
        throw new Error('disk gone');
      },
      revoke: async () => 0,
      deleteExpired: async () => 0,
    };
    let server: TestServer;
    before(async () => {
      server = await startServer(store, {
        override: { store: (p) => ({ ...p.openedStore.persistence, revocations: brokenRevocations }) },
      });
    });
    after(() => server.close());

    it('answers 503 unavailable, never the claims', async () => {
      const token = forgeToken(
        validClaims({ l1_server: 'https://l1.example', sid: 'session-1', scope: 'openid profile l1' }),
      );
      const answer = await client(server.url).get('/oauth/userinfo', {
        headers: { authorization: `Bearer ${token}` },
      });
      expectProblem(answer, 503, 'unavailable');
      expect(answer.text).to.not.include('disk gone');
      expect(answer.json).to.not.have.property('sub');
    });
  });
}
