// "Off-the-shelf clients work unmodified" (issue 26): openid-client 6 discovers L2 from its RFC 8414 metadata, runs
// the authorization-code + PKCE flow through the consent form, and introspects the token it got; jose's jwtVerify
// with createRemoteJWKSet verifies a notice's logout_token captured at a real L1 server. All against a real L2.
import { expect } from 'chai';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { client } from '../support/http.js';
import { decide, signedInBrowser } from '../support/sign-in-with-l2.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';
const BACKCHANNEL_LOGOUT = 'http://schemas.openid.net/event/backchannel-logout';

for (const store of ['memory', 'sqlite'] as const) {
  describe(`standard clients against a real L2 (${store})`, () => {
    let l2: TestServer;
    let l1: FakeL1Server;

    beforeEach(async () => {
      l1 = await new FakeL1Server().start();
      l2 = await startTestServer({ store, publicUrlIsServer: true });
    });
    afterEach(async () => {
      await l2.close();
      await l1.stop();
    });

    /** openid-client configured for the L1 server as a public client, from L2's metadata alone. */
    const discover = () =>
      oidc.discovery(new URL(l2.url), l1.url, undefined, oidc.None(), {
        algorithm: 'oauth2',
        execute: [oidc.allowInsecureRequests],
      });

    /** Signs alice in through openid-client: its authorization URL, the consent form, its code exchange. */
    async function signInWithOpenidClient(config: oidc.Configuration) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${l1.url}/auth/callback`,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      expect(authorizationUrl.href.startsWith(`${l2.url}/oauth/authorize?`)).to.equal(true);
      const browser = await signedInBrowser(l2.url, 'alice', PASSWORD);
      const allowed = await decide(browser, authorizationUrl.search.slice(1), 'allow');
      const callback = new URL(allowed.headers.get('location')!);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      return { browser, tokens };
    }

    it('openid-client discovers L2, signs in with code + PKCE, and introspects: active, then inactive after logout', async () => {
      const config = await discover();
      const metadata = config.serverMetadata();
      expect(metadata.issuer).to.equal(l2.url);
      expect(metadata.code_challenge_methods_supported).to.deep.equal(['S256']);

      const { browser, tokens } = await signInWithOpenidClient(config);
      expect(tokens.token_type).to.equal('bearer'); // openid-client lower-cases it
      expect(tokens.scope).to.equal('l1');
      expect(tokens.expiresIn()).to.be.within(30 * 24 * 3600 - 5, 30 * 24 * 3600);

      const active = await oidc.tokenIntrospection(config, tokens.access_token, { resource: l1.url });
      expect(active).to.include({ active: true, sub: 'alice', username: 'alice', aud: l1.url, iss: l2.url });
      // Without `resource`, the client_id openid-client sends is the audience (API.md §2.5): active for the client it
      // was issued to, inactive for any other.
      expect(await oidc.tokenIntrospection(config, tokens.access_token)).to.include({
        active: true,
        aud: l1.url,
      });
      const otherClient = await oidc.discovery(
        new URL(l2.url),
        'http://127.0.0.1:9',
        undefined,
        oidc.None(),
        {
          algorithm: 'oauth2',
          execute: [oidc.allowInsecureRequests],
        },
      );
      expect(await oidc.tokenIntrospection(otherClient, tokens.access_token)).to.deep.equal({
        active: false,
      });

      expect((await browser.submit('/auth/logout', {})).status).to.equal(303);
      expect(await oidc.tokenIntrospection(config, tokens.access_token, { resource: l1.url })).to.deep.equal({
        active: false,
      });
    });

    it('openid-client reports a refused code (used twice) as the RFC 6749 error L2 gave', async () => {
      const config = await discover();
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${l1.url}/auth/callback`,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = await signedInBrowser(l2.url, 'alice', PASSWORD);
      const callback = new URL(
        (await decide(browser, url.search.slice(1), 'allow')).headers.get('location')!,
      );
      const first = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: oidc.skipStateCheck,
      });
      const second = await oidc
        .authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: verifier,
          expectedState: oidc.skipStateCheck,
        })
        .catch((error: unknown) => error);
      expect(second).to.be.instanceOf(oidc.ResponseBodyError);
      expect((second as oidc.ResponseBodyError).error).to.equal('invalid_grant');
      expect(await oidc.tokenIntrospection(config, first.access_token, { resource: l1.url })).to.deep.equal({
        active: false,
      });
    });

    it("jose's jwtVerify with createRemoteJWKSet verifies a captured notice's logout_token", async () => {
      const config = await discover();
      const { browser, tokens } = await signInWithOpenidClient(config);
      await browser.submit('/auth/logout', {});
      await l1.waitForNotices(1);
      const notice = l1.notices[0]!.body;

      const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
      const { payload, protectedHeader } = await jwtVerify(notice.logout_token as string, jwks, {
        issuer: l2.url,
        audience: l1.url,
        typ: 'logout+jwt',
        algorithms: ['ES256'],
        requiredClaims: ['iat', 'exp', 'jti', 'sub', 'events'],
      });
      expect(protectedHeader.kid).to.be.a('string');
      expect(payload).to.include({ sub: 'alice', token_hash: notice.token_hash, jti: notice.token_hash });
      expect(payload.events).to.deep.equal({ [BACKCHANNEL_LOGOUT]: {} });
      expect(payload).not.to.have.property('nonce');
      expect(payload.exp! - payload.iat!).to.equal(120);
      // sid: the session the revoked token came from, as the token itself names it.
      const scopedClaims = JSON.parse(
        Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString(),
      );
      expect(payload.sid).to.equal(scopedClaims.sid);
      expect(payload.expires_at).to.equal(Math.floor(Date.parse(notice.expires_at as string) / 1000));
    });

    it('signs every delivery attempt afresh, keeping the notice id (jti)', async () => {
      const session = (await client(l2.url).post('/auth/register', { username: 'alice', password: PASSWORD }))
        .json.access_token as string;
      await client(l2.url).post('/renderers/attach', { l1_server: l1.url }, { token: session });
      l1.noticeStatuses = [503];
      await client(l2.url).post('/auth/logout', {}, { token: session });
      await l1.waitForNotices(2);
      const [first, retry] = l1.notices.map((n) => n.body.logout_token as string);
      expect(first).not.to.equal(retry);
      const jwks = createRemoteJWKSet(new URL(`${l2.url}/.well-known/jwks.json`));
      const claims = await Promise.all(
        [first!, retry!].map(async (token) => (await jwtVerify(token, jwks, { audience: l1.url })).payload),
      );
      expect(claims[1]!.jti).to.equal(claims[0]!.jti);
      expect(claims[1]!.iat).to.be.at.least(claims[0]!.iat!);
      expect(decodeProtectedHeader(retry!).kid).to.equal(decodeProtectedHeader(first!).kid);
    });
  });
}
