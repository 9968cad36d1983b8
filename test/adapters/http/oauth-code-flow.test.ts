// "Sign in with L2" over real HTTP (API.md §2.3): the consent page, Allow and Deny, the token endpoint, and every
// refusal — each a clear error, and nothing issued.
import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { FakeL1Server } from '../../support/fake-l1-server.js';
import { FixedClock } from '../../support/fixed-clock.js';
import { client } from '../../support/http.js';
import {
  authorizeQuery,
  callbackOf,
  consentFields,
  decide,
  exchange,
  pkce,
  signedInBrowser,
} from '../../support/sign-in-with-l2.js';
import type { TestServer } from '../../support/test-server.js';
import { expectProblem, jwtPayload, PASSWORD, startServer, STORES } from './helpers.js';

for (const store of STORES) {
  describe(`Sign in with L2: authorization code + PKCE (${store})`, () => {
    let server: TestServer;
    let l1: FakeL1Server;
    let clock: FixedClock;

    const verify = async (token: string, l1Server = l1.url) => {
      const answer = await client(server.url).post('/auth/verify', { token, l1_server: l1Server });
      return answer.status === 200 ? 'valid' : (answer.json.code as string);
    };
    /** Tokens L2 issued for alice at the fake L1 server, live or not. */
    const issuedToL1 = async () =>
      (await server.parts.store.issuedTokens.listActiveByUser('alice' as never, clock.now())).filter(
        (t) => t.l1Server === l1.url,
      );
    /** A code from alice's consent, with its PKCE verifier and the redirect URI it was issued for. */
    const aliceAllows = async (overrides: Record<string, string> = {}) => {
      const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
      const { verifier, challenge } = pkce();
      const query = authorizeQuery(l1.url, challenge, overrides);
      const back = callbackOf(await decide(browser, query, 'allow'));
      const code = back.searchParams.get('code')!;
      const tokenRequest = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${l1.url}/auth/callback`,
        code_verifier: verifier,
        client_id: l1.url,
      };
      return { browser, back, query, code, verifier, tokenRequest };
    };
    const expectOAuthError = (answer: { status: number; headers: Headers; json: unknown }, error: string) => {
      expect(answer.status, JSON.stringify(answer.json)).to.equal(error === 'invalid_client' ? 401 : 400);
      expect(answer.headers.get('content-type')).to.match(/^application\/json/);
      expect(answer.headers.get('cache-control')).to.equal('no-store');
      expect(answer.json).to.have.keys(['error', 'error_description']);
      expect(answer.json).to.include({ error });
    };

    beforeEach(async () => {
      clock = new FixedClock(new Date());
      l1 = await new FakeL1Server().start();
      server = await startServer(store, { override: { clock: () => clock } });
    });
    afterEach(async () => {
      await server.close();
      await l1.stop();
    });

    describe('the consent page', () => {
      it('sends a signed-out browser to log in, and back to the same request after', async () => {
        const { challenge } = pkce();
        const path = `/oauth/authorize?${authorizeQuery(l1.url, challenge)}`;
        await signedInBrowser(server.url, 'alice', PASSWORD);
        const browser = new FormBrowser(server.url);
        const anonymous = await browser.get(path);
        expect(anonymous.status).to.equal(303);
        const login = anonymous.headers.get('location')!;
        expect(login).to.equal(`/login?next=${encodeURIComponent(path)}`);

        const loginPage = await browser.get(login);
        expect(loginPage.text).to.include(`name="next" value="${path.replace(/&/g, '&amp;')}"`);
        const signedIn = await browser.submit('/auth/login', {
          username: 'alice',
          password: PASSWORD,
          next: path,
        });
        expect(signedIn.status).to.equal(303);
        expect(signedIn.headers.get('location')).to.equal(path);
      });

      it('names the L1 server (escaped) and the user, with Allow and Deny in one CSRF form, no script, never cached', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const hostile = `${l1.url}/a"b<i>`;
        const { challenge } = pkce();
        const page = await browser.get(
          `/oauth/authorize?${authorizeQuery(hostile, challenge, { redirect_uri: `${hostile}/cb` })}`,
        );
        expect(page.status, page.text).to.equal(200);
        expect(page.headers.get('cache-control')).to.equal('private, no-store');
        expect(page.text).to.include('a%22b%3Ci%3E'); // the normalised client, as URL parsing spells it
        expect(page.text).not.to.include('<i>');
        expect(page.text).to.include('<strong>alice</strong>');
        expect(page.text).not.to.match(/<script/i);
        expect(page.text).to.match(/<button type="submit" name="decision" value="allow">Allow<\/button>/);
        expect(page.text).to.match(/<button type="submit" name="decision" value="deny"[^>]*>Deny<\/button>/);
        expect(consentFields(page.text)).to.include.keys([
          '_csrf',
          'client_id',
          'redirect_uri',
          'code_challenge',
        ]);
      });

      const refusedRequests: [string, (l1: string) => Record<string, string | undefined>][] = [
        ['a redirect_uri on another origin', () => ({ redirect_uri: 'https://evil.example/auth/callback' })],
        [
          'a redirect_uri outside the L1 server path',
          (url) => ({ client_id: `${url}/studio`, redirect_uri: `${url}/studio2/cb` }),
        ],
        [
          'a redirect_uri with an encoded slash in its path',
          (url) => ({ client_id: `${url}/studio`, redirect_uri: `${url}/studio/..%2fevil` }),
        ],
        [
          'a redirect_uri with an encoded backslash in its path',
          (url) => ({ client_id: `${url}/studio`, redirect_uri: `${url}/studio/..%5Cevil` }),
        ],
        ['a client_id that is no L1 server URL', () => ({ client_id: 'not-a-url' })],
        ['no PKCE', () => ({ code_challenge: undefined, code_challenge_method: undefined })],
        ['plain PKCE', () => ({ code_challenge_method: 'plain' })],
        ['response_type token', () => ({ response_type: 'token' })],
      ];
      for (const [what, overrides] of refusedRequests) {
        it(`answers ${what} with an error page, never a redirect, and attaches nothing`, async () => {
          const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
          const { challenge } = pkce();
          const page = await browser.get(
            `/oauth/authorize?${authorizeQuery(l1.url, challenge, overrides(l1.url))}`,
          );
          expect(page.status).to.equal(400);
          expect(page.headers.get('location')).to.equal(null);
          expect(page.headers.get('content-type')).to.match(/^text\/html/);
          expect(page.text).not.to.include('name="decision"');
          const api = await client(server.url).get(
            `/oauth/authorize?${authorizeQuery(l1.url, challenge, overrides(l1.url))}`,
            {
              headers: { accept: 'application/json' },
            },
          );
          expectProblem(api, 400, 'invalid_request');
          expect(await issuedToL1()).to.deep.equal([]);
        });
      }

      it('refuses an L1 server the destination rules forbid (loopback without L1_ALLOW_PRIVATE) before any consent', async () => {
        const strict = await startServer(store, { env: { L1_ALLOW_PRIVATE: 'false' } });
        try {
          const browser = await signedInBrowser(strict.url, 'alice', PASSWORD);
          const page = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, pkce().challenge)}`);
          expect(page.status).to.equal(400);
          expect(page.text).to.include('This L1 server cannot be used');
          expect(page.text).not.to.include('name="decision"');
        } finally {
          await strict.close();
        }
      });

      it('refuses L2 itself as the client (the consent page would name L2 as the render server)', async () => {
        const own = await startServer(store, { publicUrlIsServer: true });
        try {
          const browser = await signedInBrowser(own.url, 'alice', PASSWORD);
          for (const clientId of [own.url, `${own.url}/studio`]) {
            const query = authorizeQuery(l1.url, pkce().challenge, {
              client_id: clientId,
              redirect_uri: `${clientId}/auth/callback`,
            });
            const page = await browser.get(`/oauth/authorize?${query}`);
            expect(page.status, clientId).to.equal(400);
            expect(page.headers.get('location')).to.equal(null);
            expect(page.text).not.to.include('name="decision"');
          }
        } finally {
          await own.close();
        }
      });

      it('refuses a parameter given twice', async () => {
        const { challenge } = pkce();
        const query = `${authorizeQuery(l1.url, challenge)}&client_id=${encodeURIComponent('https://other.example')}`;
        const answer = await client(server.url).get(`/oauth/authorize?${query}`, {
          headers: { accept: 'application/json' },
        });
        expectProblem(answer, 400, 'invalid_request');
      });
    });

    describe('the decision', () => {
      it('Allow: records the attachment and sends the browser back with a code and the state, nothing cached or referred', async () => {
        const { back, query, browser } = await aliceAllows();
        expect(`${back.origin}${back.pathname}`).to.equal(`${l1.url}/auth/callback`);
        expect(back.searchParams.get('state')).to.equal(new URLSearchParams(query).get('state'));
        expect(back.searchParams.get('code')).to.match(/^[\w-]{43}$/);
        // API.md §2.5 (RFC 9207): every answer sent to the client names the issuer.
        expect([...back.searchParams.keys()].sort()).to.deep.equal(['code', 'iss', 'state']);
        expect(back.searchParams.get('iss')).to.equal(server.config.publicUrl);
        const renderers = await browser.get('/renderers', { headers: { accept: 'application/json' } });
        expect(renderers.json.items.map((i: { l1_server: string }) => i.l1_server)).to.deep.equal([l1.url]);
        expect(await issuedToL1()).to.deep.equal([]); // the token is issued at the exchange, not before
      });

      it('Allow answers with no-store and no referrer', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const answer = await decide(browser, authorizeQuery(l1.url, pkce().challenge), 'allow');
        expect(answer.status).to.equal(303);
        expect(answer.headers.get('cache-control')).to.equal('no-store');
        expect(answer.headers.get('referrer-policy')).to.equal('no-referrer');
      });

      it('Deny: sends the browser back with error=access_denied and the state; nothing attached, no code', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const query = authorizeQuery(l1.url, pkce().challenge);
        const back = callbackOf(await decide(browser, query, 'deny'));
        // API.md §2.5: errors carry error_description and iss (RFC 9207) too.
        expect(Object.fromEntries(back.searchParams)).to.deep.equal({
          error: 'access_denied',
          error_description: 'The person denied the request.',
          state: new URLSearchParams(query).get('state'),
          iss: server.config.publicUrl,
        });
        const renderers = await browser.get('/renderers', { headers: { accept: 'application/json' } });
        expect(renderers.json.items).to.deep.equal([]);
        expect(await issuedToL1()).to.deep.equal([]);
      });

      it('refuses the form without its CSRF token (403), and a request changed on its way back', async () => {
        const browser = await signedInBrowser(server.url, 'alice', PASSWORD);
        const page = await browser.get(`/oauth/authorize?${authorizeQuery(l1.url, pkce().challenge)}`);
        const fields = consentFields(page.text);
        const forged = await browser.submit('/oauth/authorize', {
          ...fields,
          _csrf: 'forged',
          decision: 'allow',
        });
        expect(forged.status).to.equal(403);
        const tampered = await browser.submit('/oauth/authorize', {
          ...fields,
          redirect_uri: 'https://evil.example/cb',
          decision: 'allow',
        });
        expect(tampered.status).to.equal(400);
        expect(tampered.headers.get('location')).to.equal(null);
        const renderers = await browser.get('/renderers', { headers: { accept: 'application/json' } });
        expect(renderers.json.items).to.deep.equal([]);
      });

      it('refuses a token scoped to an L1 server (it cannot grant another)', async () => {
        const { tokenRequest } = await aliceAllows();
        const scoped = (await exchange(server.url, tokenRequest)).json.access_token as string;
        const page = await client(server.url).get(
          `/oauth/authorize?${authorizeQuery(l1.url, pkce().challenge)}`,
          {
            token: scoped,
            headers: { accept: 'application/json' },
          },
        );
        expectProblem(page, 403, 'forbidden');
      });
    });

    describe('the token endpoint', () => {
      it('exchanges the code for the token renderer attach would make, which /renderers lists and logout revokes', async () => {
        const { browser, tokenRequest } = await aliceAllows();
        const answer = await exchange(server.url, tokenRequest);
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.headers.get('cache-control')).to.equal('no-store');
        expect(Object.keys(answer.json).sort()).to.deep.equal([
          'access_token',
          'expires_in',
          'scope',
          'token_type',
        ]);
        expect(answer.json).to.include({ token_type: 'Bearer', scope: 'l1', expires_in: 30 * 24 * 3600 });
        const token = answer.json.access_token as string;
        const session = jwtPayload(browser.cookie('l2_token')!);
        expect(jwtPayload(token)).to.include({ sub: 'alice', l1_server: l1.url, sid: session.jti });
        expect(await verify(token)).to.equal('valid');
        expect(await verify(token, 'https://other.example')).to.equal('token_scope_mismatch');

        const loggedOut = await browser.submit('/auth/logout', {});
        expect(loggedOut.status).to.equal(303);
        expect(await verify(token)).to.equal('token_revoked');
        await l1.waitForNotices(1);
        expect(l1.notices[0]!.body.token_hash).to.equal((await issuedToL1())[0]!.tokenHash);
      });

      it('refuses a code used twice, and revokes the token its first use got (with a notice)', async () => {
        const { tokenRequest } = await aliceAllows();
        const first = await exchange(server.url, tokenRequest);
        expect(first.status).to.equal(200);
        expect(await verify(first.json.access_token)).to.equal('valid');

        expectOAuthError(await exchange(server.url, tokenRequest), 'invalid_grant');
        expect(await verify(first.json.access_token)).to.equal('token_revoked');
        await l1.waitForNotices(1);
        expect(l1.notices).to.have.length(1);
        expect(await issuedToL1()).to.have.length(1);
      });

      it('refuses a used code presented by anyone but its client, as it was issued, without revoking anything', async () => {
        const { tokenRequest } = await aliceAllows();
        const first = await exchange(server.url, tokenRequest);
        expect(first.status).to.equal(200);
        const other = await new FakeL1Server().start();
        try {
          for (const wrong of [
            { client_id: other.url, redirect_uri: `${other.url}/auth/callback` },
            { redirect_uri: `${l1.url}/elsewhere` },
            { code_verifier: pkce().verifier },
          ]) {
            expectOAuthError(await exchange(server.url, { ...tokenRequest, ...wrong }), 'invalid_grant');
            expect(await verify(first.json.access_token), JSON.stringify(wrong)).to.equal('valid');
          }
        } finally {
          await other.stop();
        }
        expect(l1.notices).to.deep.equal([]);
        // The client itself presenting it again still ends the first token.
        expectOAuthError(await exchange(server.url, tokenRequest), 'invalid_grant');
        expect(await verify(first.json.access_token)).to.equal('token_revoked');
      });

      it('refuses a code exchanged at another redirect_uri', async () => {
        const { tokenRequest } = await aliceAllows();
        expectOAuthError(
          await exchange(server.url, { ...tokenRequest, redirect_uri: `${l1.url}/elsewhere` }),
          'invalid_grant',
        );
        expect(await issuedToL1()).to.deep.equal([]);
        // Nothing was spent: the right request still works.
        expect((await exchange(server.url, tokenRequest)).status).to.equal(200);
      });

      it("refuses another L1 server's client_id", async () => {
        const { tokenRequest } = await aliceAllows();
        const other = await new FakeL1Server().start();
        try {
          expectOAuthError(
            await exchange(server.url, {
              ...tokenRequest,
              client_id: other.url,
              redirect_uri: `${other.url}/auth/callback`,
            }),
            'invalid_grant',
          );
          expectOAuthError(
            await exchange(server.url, { ...tokenRequest, client_id: other.url }),
            'invalid_grant',
          );
        } finally {
          await other.stop();
        }
        expect(await issuedToL1()).to.deep.equal([]);
      });

      it('refuses a missing code_verifier (invalid_request) and a wrong one (invalid_grant)', async () => {
        const { tokenRequest } = await aliceAllows();
        expectOAuthError(
          await exchange(server.url, { ...tokenRequest, code_verifier: undefined }),
          'invalid_request',
        );
        expectOAuthError(
          await exchange(server.url, { ...tokenRequest, code_verifier: pkce().verifier }),
          'invalid_grant',
        );
        expect(await issuedToL1()).to.deep.equal([]);
      });

      it('refuses an expired code (60 seconds)', async () => {
        const { tokenRequest } = await aliceAllows();
        clock.advance(60_000);
        expectOAuthError(await exchange(server.url, tokenRequest), 'invalid_grant');
        expect(await issuedToL1()).to.deep.equal([]);
      });

      it('refuses an unknown code, another grant type, a bad client_id and a repeated parameter', async () => {
        const { tokenRequest } = await aliceAllows();
        expectOAuthError(await exchange(server.url, { ...tokenRequest, code: 'made-up' }), 'invalid_grant');
        expectOAuthError(
          await exchange(server.url, { ...tokenRequest, grant_type: 'client_credentials' }),
          'unsupported_grant_type',
        );
        expectOAuthError(
          await exchange(server.url, { ...tokenRequest, client_id: 'nope' }),
          'invalid_client',
        );
        const repeated = await client(server.url).post('/oauth/token', undefined, {
          raw: `${new URLSearchParams(tokenRequest as Record<string, string>).toString()}&code=again`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expectOAuthError(repeated, 'invalid_request');
        expect(await issuedToL1()).to.deep.equal([]);
      });

      it('refuses a code whose session logged out before the exchange', async () => {
        const { browser, tokenRequest } = await aliceAllows();
        await browser.submit('/auth/logout', {});
        expectOAuthError(await exchange(server.url, tokenRequest), 'invalid_grant');
        const issued = await issuedToL1();
        // Signed, recorded and revoked at once: it never worked.
        for (const token of issued)
          expect(await server.parts.store.revocations.isRevoked(token.tokenHash)).to.equal(true);
      });

      it('takes the token request as JSON too', async () => {
        const { tokenRequest } = await aliceAllows();
        const answer = await client(server.url).post('/oauth/token', tokenRequest);
        expect(answer.status).to.equal(200);
      });
    });
  });
}
