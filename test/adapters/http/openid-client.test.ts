// An OpenID Connect implementation L2's authors did not write — openid-client 6 in its default (OpenID Connect) mode —
// against a real L2 on 127.0.0.1 (API.md §2.5): discovery, the code flow with nonce and PKCE, the ID token validated
// by the library, UserInfo, the end-session URL, prompt=none signed out, and max_age=0. The client is an L1 server
// URL (a public client, token_endpoint_auth_method none); the browser's steps are driven over HTTP as a browser would
// make them.
import { expect } from 'chai';
import * as oidc from 'openid-client';
import type { Clock } from '../../../src/application/ports/clock.js';
import { FormBrowser } from '../../support/browser.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { request as httpRequest } from '../../support/http.js';
import { consentFields, signedInBrowser } from '../../support/sign-in-with-l2.js';
import type { TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer } from './helpers.js';

/** Real time moved on by the test: openid-client checks `iat` and `auth_time` against its own (real) clock. */
class AdvancedClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

describe('openid-client 6 in its default OpenID Connect mode, against L2 (API.md §2.5)', () => {
  let server: TestServer;
  let l1: FakeL1Server;
  let clock: AdvancedClock;
  let config: oidc.Configuration;

  const redirectUri = () => `${l1.url}/auth/callback`;

  before(async () => {
    clock = new AdvancedClock();
    l1 = await new FakeL1Server().start();
    server = await startServer('sqlite', { publicUrlIsServer: true, override: { clock: () => clock } });
    // The client is the L1 server's URL, without a secret (token_endpoint_auth_method none).
    config = await oidc.discovery(new URL(server.url), l1.url, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests], // L2 listens on http://127.0.0.1 here
    });
  });
  after(async () => {
    await server.close();
    await l1.stop();
  });

  /** The request openid-client builds, with a fresh verifier, nonce and state. */
  const start = async (extra: Record<string, string> = {}) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(),
      scope: 'openid profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
      ...extra,
    });
    return { url, verifier, nonce, state, path: `${url.pathname}${url.search}` };
  };
  /** Where L2 sent the browser back to (the client's callback URL), after pressing Allow on the page at `path`. */
  const allowAt = async (browser: FormBrowser, path: string): Promise<URL> => {
    const page = await browser.get(path);
    expect(page.status, page.text).to.equal(200);
    const back = await browser.submit('/oauth/authorize', { ...consentFields(page.text), decision: 'allow' });
    expect(back.status, back.text).to.equal(303);
    return new URL(back.headers.get('location')!);
  };

  it('discovers L2 as an OpenID Provider', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).to.equal(server.url);
    expect(metadata.userinfo_endpoint).to.equal(`${server.url}/oauth/userinfo`);
    expect(metadata.id_token_signing_alg_values_supported).to.deep.equal(['RS256']);
  });

  it('signs in with code, nonce and PKCE: the library validates the ID token, then reads UserInfo', async () => {
    const browser = await signedInBrowser(server.url, 'olive', PASSWORD);
    const request = await start();
    const callback = await allowAt(browser, request.path);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedNonce: request.nonce,
      expectedState: request.state,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).to.include({ iss: server.url, sub: 'olive', aud: l1.url, nonce: request.nonce });
    expect(claims.preferred_username).to.equal('olive');
    expect(tokens.scope).to.equal('openid profile l1');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).to.deep.equal({
      sub: 'olive',
      preferred_username: 'olive',
      name: 'olive',
      profile: `${server.url}/users/olive`,
    });
  });

  it("logs out through the end-session URL the library builds: the person's choice ends the token, and the browser goes back with state", async () => {
    const browser = await signedInBrowser(server.url, 'eve', PASSWORD);
    const request = await start();
    const tokens = await oidc.authorizationCodeGrant(config, await allowAt(browser, request.path), {
      pkceCodeVerifier: request.verifier,
      expectedNonce: request.nonce,
      expectedState: request.state,
    });
    const endSession = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: `${l1.url}/signed-out`,
      state: 'bye-1',
    });
    expect(endSession.origin + endSession.pathname).to.equal(`${server.url}/oauth/logout`);
    const page = await browser.get(`${endSession.pathname}${endSession.search}`);
    expect(page.status, page.text).to.equal(200);
    const fields = Object.fromEntries(
      [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, n, v]) => [
        n!,
        v!,
      ]),
    );
    const back = await browser.submit('/oauth/logout', { ...fields, decision: 'client' });
    expect(back.status, back.text).to.equal(303);
    expect(back.headers.get('location')).to.equal(`${l1.url}/signed-out?state=bye-1`);
    const introspected = await httpRequest(
      'POST',
      `${server.url}/oauth/introspect`,
      { token: tokens.access_token, resource: l1.url },
      { form: true },
    );
    expect(introspected.json).to.deep.equal({ active: false });
  });

  it('prompt=none with a browser signed out: the library reads login_required', async () => {
    const request = await start({ prompt: 'none' });
    const answer = await new FormBrowser(server.url).get(request.path);
    expect(answer.status).to.equal(303);
    let error: unknown = null;
    try {
      await oidc.authorizationCodeGrant(config, new URL(answer.headers.get('location')!), {
        pkceCodeVerifier: request.verifier,
        expectedNonce: request.nonce,
        expectedState: request.state,
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).to.be.instanceOf(oidc.AuthorizationResponseError);
    expect((error as oidc.AuthorizationResponseError).error).to.equal('login_required');
  });

  it('max_age=0: the person signs in again, and the ID token has a newer auth_time', async () => {
    const browser = await signedInBrowser(server.url, 'pavel', PASSWORD);
    const first = await start();
    const firstTokens = await oidc.authorizationCodeGrant(config, await allowAt(browser, first.path), {
      pkceCodeVerifier: first.verifier,
      expectedNonce: first.nonce,
      expectedState: first.state,
    });
    const before = firstTokens.claims()!.auth_time!;

    clock.offsetMs += 5_000;
    const again = await start({ max_age: '0' });
    const toLogin = await browser.get(again.path);
    expect(toLogin.status).to.equal(303);
    const login = toLogin.headers.get('location')!;
    await browser.get(login);
    const next = new URL(login, server.url).searchParams.get('next')!;
    const signedIn = await browser.submit('/auth/login', { username: 'pavel', password: PASSWORD, next });
    expect(signedIn.headers.get('location')).to.equal(next);
    const tokens = await oidc.authorizationCodeGrant(config, await allowAt(browser, next), {
      pkceCodeVerifier: again.verifier,
      expectedNonce: again.nonce,
      expectedState: again.state,
      maxAge: 0,
    });
    expect(tokens.claims()!.auth_time).to.be.above(before);
  });
});
