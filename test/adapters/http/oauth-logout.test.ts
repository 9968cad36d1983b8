// RP-initiated logout over real HTTP (API.md §2.5, OpenID Connect RP-Initiated Logout 1.0): the page a client sends
// the browser to, which never revokes by itself; the person's decision, which ends the client's tokens of one session
// (and with `all` the browser's L2 session), records first and notices after; and every refused request — an error
// page with nothing revoked.
import { expect } from 'chai';
import type { FormBrowser } from '../../support/browser.js';
import { FakeClientDocuments } from '../../support/fake-client-documents.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { request } from '../../support/http.js';
import {
  authorizeQuery,
  callbackOf,
  decide,
  exchange,
  logoutFields,
  pkce,
  signedInBrowser,
} from '../../support/sign-in-with-l2.js';
import type { TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer, STORES } from './helpers.js';

const OPENID = { scope: 'openid' };

for (const store of STORES) {
  describe(`RP-initiated logout /oauth/logout (API.md §2.5, ${store})`, () => {
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

    /** `browser` signs in to `clientId` with OpenID Connect: the access token and the ID token it gets. */
    const signIn = async (
      browser: FormBrowser,
      clientId = l1.url,
      redirectUri = `${clientId}/auth/callback`,
    ) => {
      const { verifier, challenge } = pkce();
      const query = authorizeQuery(clientId, challenge, { ...OPENID, redirect_uri: redirectUri });
      const back = callbackOf(await decide(browser, query, 'allow'));
      const answer = await exchange(server.url, {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: clientId,
      });
      expect(answer.status, answer.text).to.equal(200);
      return { accessToken: answer.json.access_token as string, idToken: answer.json.id_token as string };
    };
    /** Whether `token` is still accepted for `l1Server` (introspection with `resource`). */
    const active = async (token: string, l1Server = l1.url) =>
      (await request('POST', `${server.url}/oauth/introspect`, { token, resource: l1Server }, { form: true }))
        .json.active as boolean;
    const signedInToL2 = async (browser: FormBrowser) =>
      (await browser.get('/auth/me', { headers: { accept: 'application/json' } })).status === 200;
    /** Opens the logout page with `params` and presses `decision`. */
    const logOut = async (
      browser: FormBrowser,
      params: Record<string, string>,
      decision: 'client' | 'all',
    ) => {
      const page = await browser.get(`/oauth/logout?${new URLSearchParams(params)}`);
      expect(page.status, page.text).to.equal(200);
      return browser.submit('/oauth/logout', { ...logoutFields(page.text), decision });
    };

    it('shows a page naming the client with both choices, and revokes nothing (GET, and POST without decision)', async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { accessToken, idToken } = await signIn(browser);
      const page = await browser.get(`/oauth/logout?id_token_hint=${idToken}&state=s1`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).to.include(`<strong class="client">${l1.url}</strong>`);
      expect(page.text)
        .to.include('name="decision" value="client"')
        .and.include('name="decision" value="all"');
      expect(page.text).to.include('name="_csrf"');
      expect(page.text).not.to.include('<script');
      expect(logoutFields(page.text)).to.include({ id_token_hint: idToken, state: 's1' });
      const posted = await browser.submit('/oauth/logout', { id_token_hint: idToken });
      expect(posted.status).to.equal(200);
      expect(posted.text).to.include('name="decision" value="client"');
      expect(await active(accessToken)).to.equal(true);
      expect(await signedInToL2(browser)).to.equal(true);
    });

    it("decision=client ends the client's tokens of the hint's session (record, then notice), keeps the L2 session and other clients, and goes back with state", async () => {
      const other = await new FakeL1Server().start();
      try {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const first = await signIn(browser);
        const second = await signIn(browser);
        const elsewhere = await signIn(browser, other.url);
        const back = `${l1.url}/signed-out`;
        // What the L1 server sees when it asks while a notice is being delivered: the record came first.
        const activeDuringNotice: boolean[] = [];
        l1.onNotice = async () => {
          activeDuringNotice.push(await active(first.accessToken), await active(second.accessToken));
        };
        const answer = await logOut(
          browser,
          { id_token_hint: first.idToken, post_logout_redirect_uri: back, state: 'st-9' },
          'client',
        );
        expect(answer.status).to.equal(303);
        expect(answer.headers.get('location')).to.equal(`${back}?state=st-9`);
        expect(await active(first.accessToken)).to.equal(false);
        expect(await active(second.accessToken)).to.equal(false);
        expect(await active(elsewhere.accessToken, other.url)).to.equal(true);
        expect(await signedInToL2(browser)).to.equal(true);
        await l1.waitForNotices(2);
        expect(l1.notices).to.have.length(2);
        expect(activeDuringNotice).to.deep.equal([false, false, false, false]);
        expect(other.notices).to.have.length(0);
      } finally {
        await other.stop();
      }
    });

    it('decision=all also logs the browser out of L2, as POST /auth/logout does; without a redirect a page says what was ended', async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { accessToken, idToken } = await signIn(browser);
      const answer = await logOut(browser, { id_token_hint: idToken }, 'all');
      expect(answer.status).to.equal(200);
      expect(answer.text).to.include('You are logged out of').and.include('1 token it held was ended');
      expect(answer.text).to.include('You are logged out of L2 too');
      expect(await active(accessToken)).to.equal(false);
      expect(await signedInToL2(browser)).to.equal(false);
    });

    it("a hint about another person than the browser's: the page names both; client ends the hint's sign-in, all signs only this browser out", async () => {
      const alice = await signedInBrowser(server.url, 'alice', PASSWORD);
      const aliceAtL1 = await signIn(alice);
      const bob = await signedInBrowser(server.url, 'bob', PASSWORD);
      const bobAtL1 = await signIn(bob);
      const page = await bob.get(`/oauth/logout?id_token_hint=${aliceAtL1.idToken}`);
      expect(page.text).to.include('It asks to end the sign-in of <strong>alice</strong>, not yours');
      expect(page.text).to.include('signs <strong>bob</strong> out of this browser');
      const ended = await bob.submit('/oauth/logout', { ...logoutFields(page.text), decision: 'client' });
      expect(ended.text).to.include('<strong>alice</strong> is logged out of');
      expect(await active(aliceAtL1.accessToken)).to.equal(false);
      expect(await active(bobAtL1.accessToken)).to.equal(true);
      expect(await signedInToL2(bob)).to.equal(true);

      const again = await signIn(alice);
      const all = await logOut(bob, { id_token_hint: again.idToken }, 'all');
      expect(all.text).to.include('You are logged out of L2 too');
      expect(await active(again.accessToken)).to.equal(false);
      expect(await signedInToL2(bob)).to.equal(false);
      expect(await signedInToL2(alice)).to.equal(true);
      // Logging this browser out ended bob's own session, so what it gave the L1 server ends too (as /auth/logout).
      expect(await active(bobAtL1.accessToken)).to.equal(false);
    });

    it("without a hint, ends the client's tokens of the browser's own session", async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { accessToken } = await signIn(browser);
      const answer = await logOut(browser, { client_id: l1.url }, 'client');
      expect(answer.status).to.equal(200);
      expect(await active(accessToken)).to.equal(false);
      expect(await signedInToL2(browser)).to.equal(true);
    });

    it('takes a GET with a whole ID token, a state of 1,024 characters and a return URL — past the 2,048 bytes other routes take', async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { accessToken, idToken } = await signIn(browser);
      const params = {
        id_token_hint: idToken,
        post_logout_redirect_uri: `${l1.url}/signed-out`,
        state: 'a/b='.repeat(256),
      };
      expect(new URLSearchParams(params).toString().length).to.be.above(2048);
      const answer = await logOut(browser, params, 'client');
      expect(answer.headers.get('location')).to.equal(
        `${l1.url}/signed-out?${new URLSearchParams({ state: params.state })}`,
      );
      expect(await active(accessToken)).to.equal(false);
      const tooLong = await browser.get(`/oauth/logout?state=${'a'.repeat(8193)}`);
      expect(tooLong.status).to.equal(400);
      expect(tooLong.text).to.include('8192 bytes');
    });

    it('accepts an expired ID token as the hint', async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { accessToken, idToken } = await signIn(browser);
      clock.advance(60 * 60 * 1000);
      const answer = await logOut(browser, { id_token_hint: idToken }, 'client');
      expect(answer.status).to.equal(200);
      expect(await active(accessToken)).to.equal(false);
    });

    it("a decision without the page's CSRF token is refused, nothing revoked", async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { accessToken, idToken } = await signIn(browser);
      const forged = await browser.submit('/oauth/logout', {
        id_token_hint: idToken,
        decision: 'all',
        _csrf: 'forged',
      });
      expect(forged.status).to.equal(403);
      expect(await active(accessToken)).to.equal(true);
      expect(await signedInToL2(browser)).to.equal(true);
    });

    describe('refused with an error page (400), nothing revoked', () => {
      let browser: FormBrowser;
      let tokens: { accessToken: string; idToken: string };
      beforeEach(async () => {
        browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        tokens = await signIn(browser);
      });
      afterEach(async () => {
        expect(await active(tokens.accessToken)).to.equal(true);
        expect(await signedInToL2(browser)).to.equal(true);
      });

      const refused = async (params: Record<string, string>) => {
        const page = await browser.get(`/oauth/logout?${new URLSearchParams(params)}`);
        expect(page.status, page.text).to.equal(400);
        expect(page.headers.get('location')).to.equal(null);
        // The decision posted anyway is refused the same way.
        const posted = await browser.submit('/oauth/logout', { ...params, decision: 'all' });
        expect(posted.status, posted.text).to.equal(400);
        return page;
      };

      it('a hint whose signature does not verify', async () => {
        const [header, payload, signature] = tokens.idToken.split('.');
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
        const altered = Buffer.from(JSON.stringify({ ...claims, sid: 'another' })).toString('base64url');
        await refused({ id_token_hint: `${header}.${altered}.${signature}` });
        await refused({ id_token_hint: 'not-a-jwt' });
      });

      it('a client_id other than the hint’s audience', async () => {
        await refused({ id_token_hint: tokens.idToken, client_id: 'https://other.example' });
      });

      it('a post_logout_redirect_uri off the L1 server, or without a client', async () => {
        await refused({ id_token_hint: tokens.idToken, post_logout_redirect_uri: 'https://evil.example/' });
        await refused({ client_id: l1.url, post_logout_redirect_uri: `${l1.url}2/x` });
        await refused({ post_logout_redirect_uri: `${l1.url}/signed-out` });
      });

      it('a parameter given twice', async () => {
        const page = await browser.get(`/oauth/logout?client_id=${l1.url}&client_id=https://other.example`);
        expect(page.status).to.equal(400);
      });

      it('decision=client for a request naming no client', async () => {
        const page = await browser.get('/oauth/logout');
        expect(page.status).to.equal(200);
        expect(page.text).to.include('name="decision" value="all"').and.not.include('value="client"');
        const posted = await browser.submit('/oauth/logout', { decision: 'client' });
        expect(posted.status).to.equal(400);
      });
    });

    it('escapes what the request carries', async () => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const page = await browser.get(
        `/oauth/logout?${new URLSearchParams({ client_id: l1.url, state: '"><script>alert(1)</script>' })}`,
      );
      expect(page.status).to.equal(200);
      expect(page.text).not.to.include('<script>alert(1)');
      expect(page.text).to.include('&quot;&gt;&lt;script&gt;');
    });

    describe('a document client', () => {
      let docs: FakeClientDocuments;
      beforeEach(async () => {
        docs = await new FakeClientDocuments().start();
      });
      afterEach(() => docs.stop());

      it("goes back only to one of its post_logout_redirect_uris, exactly; its page shows the document's name next to the host", async () => {
        const clientId = docs.publish('/app/client.json', {
          client_name: 'Studio <b>One</b>',
          redirect_uris: [docs.url('/cb')],
          post_logout_redirect_uris: [docs.url('/bye')],
        });
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const { accessToken, idToken } = await signIn(browser, clientId, docs.url('/cb'));
        const page = await browser.get(
          `/oauth/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: docs.url('/bye/') })}`,
        );
        expect(page.status).to.equal(400);
        const shown = await browser.get(
          `/oauth/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: docs.url('/bye') })}`,
        );
        expect(shown.status).to.equal(200);
        expect(shown.text).to.include(`<strong>${new URL(clientId).host}</strong>`);
        expect(shown.text).to.include('Studio &lt;b&gt;One&lt;/b&gt;');
        const answer = await browser.submit('/oauth/logout', {
          ...logoutFields(shown.text),
          decision: 'client',
        });
        expect(answer.status).to.equal(303);
        expect(answer.headers.get('location')).to.equal(docs.url('/bye'));
        expect(await active(accessToken, clientId)).to.equal(false);
      });
    });
  });
}
