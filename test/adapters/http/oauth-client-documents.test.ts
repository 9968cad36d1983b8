// Clients identified by Client ID Metadata Documents (API.md §2.5) over real HTTP: documents served by a real client
// on 127.0.0.1 (L1_ALLOW_PRIVATE=true, so http on loopback is looked up), the consent page naming the client next to
// its host, exact redirect_uris, private_key_jwt with replays refused — and every refusal with nothing issued.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { FakeClientDocuments } from '../../support/fake-client-documents.js';
import type { FormBrowser } from '../../support/browser.js';
import { request } from '../../support/http.js';
import {
  authorizeQuery,
  callbackOf,
  consentFields,
  exchange,
  pkce,
  signedInBrowser,
} from '../../support/sign-in-with-l2.js';
import type { TestServer } from '../../support/test-server.js';
import { jwtPayload, PASSWORD, startServer, STORES } from './helpers.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

for (const store of STORES) {
  describe(`Client ID Metadata Documents (${store})`, () => {
    let server: TestServer;
    let docs: FakeClientDocuments;
    let browser: FormBrowser;

    before(async () => {
      server = await startServer(store);
      browser = await signedInBrowser(server.url, 'alice', PASSWORD);
    });
    after(() => server.close());
    beforeEach(async () => {
      docs = await new FakeClientDocuments().start();
    });
    afterEach(() => docs.stop());

    /** Tokens L2 issued to alice for `clientId`, and whether alice has it attached. */
    const issuedTo = async (clientId: string) => ({
      tokens: (await server.parts.store.issuedTokens.listActiveByUser('alice' as never, new Date())).filter(
        (t) => t.l1Server === clientId,
      ).length,
      attached: (await server.parts.store.attachments.list('alice' as never)).some(
        (a) => a.l1Server === clientId,
      ),
    });

    /** A code for `clientId` at `redirectUri`, allowed by alice on the consent page. */
    const allow = async (clientId: string, redirectUri: string) => {
      const { verifier, challenge } = pkce();
      const page = await browser.get(
        `/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: redirectUri })}`,
      );
      expect(page.status, page.text).to.equal(200);
      const back = callbackOf(
        await browser.submit('/oauth/authorize', { ...consentFields(page.text), decision: 'allow' }),
      );
      return {
        page,
        fields: {
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: redirectUri,
          code_verifier: verifier,
        },
      };
    };

    describe('a public document client', () => {
      it('shows its name, logo and home page next to its host, and gets a token whose l1_server is its client_id', async () => {
        const clientId = docs.publish('/app/client.json', {
          client_name: 'Photo <Studio>',
          redirect_uris: [docs.url('/callback')],
          logo_uri: docs.url('/logo.png'),
          client_uri: docs.url('/about'),
        });
        const { page, fields } = await allow(clientId, docs.url('/callback'));
        expect(page.text).to.include(`<strong>127.0.0.1:${new URL(docs.origin).port}</strong>`);
        expect(page.text).to.include('Photo &lt;Studio&gt;');
        expect(page.text).not.to.include('Photo <Studio>');
        expect(page.text).to.match(/<img src="[^"]*\/logo\.png"[^>]*referrerpolicy="no-referrer"/);
        expect(page.text).to.include(`href="${docs.url('/about')}"`);

        const token = await exchange(server.url, { ...fields, client_id: clientId });
        expect(token.status, token.text).to.equal(200);
        expect(jwtPayload(token.json.access_token as string).l1_server).to.equal(clientId);
        expect(await issuedTo(clientId)).to.deep.equal({ tokens: 1, attached: true });

        // Introspected by its own client (no resource): active, with aud = the client_id.
        const own = await request(
          'POST',
          `${server.url}/oauth/introspect`,
          { token: token.json.access_token, client_id: clientId },
          { form: true },
        );
        expect(own.json).to.include({ active: true, aud: clientId });
      });

      it('keeps a document for its max-age, and asks again without one', async () => {
        const kept = docs.publish(
          '/kept.json',
          { redirect_uris: [docs.url('/cb')] },
          { 'cache-control': 'max-age=600' },
        );
        await allow(kept, docs.url('/cb'));
        await allow(kept, docs.url('/cb'));
        expect(docs.fetches.filter((path) => path === '/kept.json')).to.have.length(1);
        const fresh = docs.publish('/fresh.json', { redirect_uris: [docs.url('/cb')] });
        await allow(fresh, docs.url('/cb'));
        await allow(fresh, docs.url('/cb'));
        // Each look-up fetches: the consent page's and the decision's, twice.
        expect(docs.fetches.filter((path) => path === '/fresh.json')).to.have.length(4);
      });

      it('treats a client_id whose URL answers 404 as an L1 server URL client (§2.3 unchanged)', async () => {
        const { fields } = await allow(docs.url('/studio'), docs.url('/studio/cb'));
        const token = await exchange(server.url, { ...fields, client_id: docs.url('/studio') });
        expect(token.status, token.text).to.equal(200);
        expect(docs.fetches).to.include('/studio');
      });
    });

    describe('back-channel logout', () => {
      it('tells a revocation to the backchannel_logout_uri the document had at issue: a form-encoded logout_token, nothing else', async () => {
        const clientId = docs.publish('/bcl.json', {
          redirect_uris: [docs.url('/cb')],
          backchannel_logout_uri: docs.url('/backchannel?v=1'),
        });
        const { fields } = await allow(clientId, docs.url('/cb'));
        const token = (await exchange(server.url, { ...fields, client_id: clientId })).json
          .access_token as string;
        // The document changes after issue: the URI held when the token was issued is the one told.
        docs.publish('/bcl.json', {
          redirect_uris: [docs.url('/cb')],
          backchannel_logout_uri: docs.url('/elsewhere'),
        });

        const revoked = await request(
          'POST',
          `${server.url}/oauth/revoke`,
          { token, client_id: clientId },
          { form: true },
        );
        expect(revoked.status, revoked.text).to.equal(200);
        await docs.waitForLogouts(1);
        const [logout] = docs.logouts;
        expect(logout!.path).to.equal('/backchannel');
        expect(logout!.contentType).to.equal('application/x-www-form-urlencoded');
        expect(Object.keys(logout!.fields)).to.deep.equal(['logout_token']);
        const claims = jwtPayload(logout!.fields.logout_token!);
        expect(claims).to.include({ aud: clientId, iss: server.config.publicUrl, sub: 'alice' });
        expect(claims.events).to.have.key('http://schemas.openid.net/event/backchannel-logout');
      });

      it("tells the person's logout at L2 to the client's backchannel_logout_uri", async () => {
        const clientId = docs.publish('/out.json', {
          redirect_uris: [docs.url('/cb')],
          backchannel_logout_uri: docs.url('/bye'),
        });
        const frank = await signedInBrowser(server.url, 'frank', PASSWORD);
        const { verifier, challenge } = pkce();
        const page = await frank.get(
          `/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: docs.url('/cb') })}`,
        );
        const back = callbackOf(
          await frank.submit('/oauth/authorize', { ...consentFields(page.text), decision: 'allow' }),
        );
        const token = await exchange(server.url, {
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: docs.url('/cb'),
          code_verifier: verifier,
          client_id: clientId,
        });
        expect(token.status, token.text).to.equal(200);
        expect((await frank.submit('/auth/logout', {})).status).to.equal(303);
        await docs.waitForLogouts(1);
        expect(docs.logouts[0]!.path).to.equal('/bye');
        expect(jwtPayload(docs.logouts[0]!.fields.logout_token!)).to.include({ aud: clientId, sub: 'frank' });
      });

      it('sends nothing for a document client without backchannel_logout_uri, and nothing to <client_id>/auth/revoke', async () => {
        const clientId = docs.publish('/quiet.json', { redirect_uris: [docs.url('/cb')] });
        const { fields } = await allow(clientId, docs.url('/cb'));
        const token = (await exchange(server.url, { ...fields, client_id: clientId })).json
          .access_token as string;
        const marker = docs.publish('/marker.json', {
          redirect_uris: [docs.url('/cb')],
          backchannel_logout_uri: docs.url('/marker-logout'),
        });
        const other = await allow(marker, docs.url('/cb'));
        const markerToken = (await exchange(server.url, { ...other.fields, client_id: marker })).json
          .access_token as string;
        for (const [t, c] of [
          [token, clientId],
          [markerToken, marker],
        ] as const)
          await request('POST', `${server.url}/oauth/revoke`, { token: t, client_id: c }, { form: true });
        // The queue works in order per origin: once the marker's logout arrived, the quiet client's turn has passed.
        await docs.waitForLogouts(1);
        expect(docs.logouts.map((l) => l.path)).to.deep.equal(['/marker-logout']);
      });
    });

    // Each redirect_uri lies under its client_id's path, so the §2.3 rules alone would accept it: only the document's
    // refusal stops these.
    describe('refused documents: an error page, never a redirect, nothing issued or attached', () => {
      const refused: [string, (docs: FakeClientDocuments) => { clientId: string; redirectUri: string }][] = [
        [
          'a document whose client_id differs',
          (d) => {
            d.answers.set('/c', {
              body: { client_id: d.url('/other.json'), redirect_uris: [d.url('/c/cb')] },
            });
            return { clientId: d.url('/c'), redirectUri: d.url('/c/cb') };
          },
        ],
        [
          'an unlisted redirect_uri',
          (d) => ({
            clientId: d.publish('/c', { redirect_uris: [d.url('/c/cb')] }),
            redirectUri: d.url('/c/elsewhere'),
          }),
        ],
        [
          'a secret-based method',
          (d) => ({
            clientId: d.publish('/c', {
              redirect_uris: [d.url('/c/cb')],
              token_endpoint_auth_method: 'client_secret_post',
            }),
            redirectUri: d.url('/c/cb'),
          }),
        ],
        [
          'a document over the 5,120-byte cap',
          (d) => ({
            clientId: d.publish('/c', { redirect_uris: [d.url('/c/cb')], padding: 'x'.repeat(5_200) }),
            redirectUri: d.url('/c/cb'),
          }),
        ],
        [
          'a document that is not JSON',
          (d) => {
            d.answers.set('/c', { body: '{"client_id": nope' });
            return { clientId: d.url('/c'), redirectUri: d.url('/c/cb') };
          },
        ],
        [
          'a document of another content type',
          (d) => {
            d.answers.set('/c', {
              body: { client_id: d.url('/c'), redirect_uris: [d.url('/c/cb')] },
              headers: { 'content-type': 'text/html' },
            });
            return { clientId: d.url('/c'), redirectUri: d.url('/c/cb') };
          },
        ],
        [
          'a document behind a redirect',
          (d) => {
            d.publish('/real', { client_id: d.url('/c'), redirect_uris: [d.url('/c/cb')] });
            d.answers.set('/c', { status: 302, headers: { location: d.url('/real') }, body: '' });
            return { clientId: d.url('/c'), redirectUri: d.url('/c/cb') };
          },
        ],
      ];
      for (const [what, setUp] of refused) {
        it(`refuses ${what}`, async () => {
          const { clientId, redirectUri } = setUp(docs);
          const { challenge } = pkce();
          const page = await browser.get(
            `/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: redirectUri })}`,
          );
          expect(page.status, page.text).to.equal(400);
          expect(page.headers.get('location')).to.equal(null);
          expect(await issuedTo(clientId)).to.deep.equal({ tokens: 0, attached: false });
        });
      }
    });

    describe('private_key_jwt', () => {
      let privateKey: CryptoKey;
      let clientId: string;
      const assertion = (claims: Record<string, unknown> = {}, kid = 'k1') => {
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({
          iss: clientId,
          sub: clientId,
          aud: `${server.config.publicUrl}/oauth/token`,
          iat: now,
          exp: now + 60,
          jti: randomUUID(),
          ...claims,
        })
          .setProtectedHeader({ alg: 'ES256', kid })
          .sign(privateKey);
      };

      beforeEach(async () => {
        const pair = await generateKeyPair('ES256');
        privateKey = pair.privateKey;
        clientId = docs.publish('/pkj.json', {
          redirect_uris: [docs.url('/cb')],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1' }] },
        });
      });

      it('issues a token to a client that signs its assertion, and refuses the same assertion replayed', async () => {
        const { fields } = await allow(clientId, docs.url('/cb'));
        const signed = await assertion();
        const withAssertion = { ...fields, client_assertion_type: ASSERTION_TYPE, client_assertion: signed };
        const token = await exchange(server.url, withAssertion);
        expect(token.status, token.text).to.equal(200);

        const second = await allow(clientId, docs.url('/cb'));
        const replayed = await exchange(server.url, {
          ...second.fields,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: signed,
        });
        expect(replayed.status, replayed.text).to.equal(401);
        expect(replayed.json).to.include({ error: 'invalid_client' });
        expect((await issuedTo(clientId)).tokens).to.equal(1);
      });

      const refusals: [string, () => Promise<Record<string, string>>][] = [
        ['no assertion (client_id alone)', async () => ({ client_id: clientId })],
        [
          'an assertion for another audience',
          async () => ({
            client_assertion_type: ASSERTION_TYPE,
            client_assertion: await assertion({ aud: 'https://elsewhere.example' }),
          }),
        ],
        [
          'an assertion signed by another key',
          async () => {
            privateKey = (await generateKeyPair('ES256')).privateKey;
            return { client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion() };
          },
        ],
        [
          'an assertion living more than 10 minutes',
          async () => ({
            client_assertion_type: ASSERTION_TYPE,
            client_assertion: await assertion({ exp: Math.floor(Date.now() / 1000) + 3600 }),
          }),
        ],
      ];
      for (const [what, credentials] of refusals) {
        it(`refuses ${what} with 401 invalid_client, issuing nothing`, async () => {
          const { fields } = await allow(clientId, docs.url('/cb'));
          const answer = await exchange(server.url, { ...fields, ...(await credentials()) });
          expect(answer.status, answer.text).to.equal(401);
          expect(answer.json).to.include({ error: 'invalid_client' });
          expect((await issuedTo(clientId)).tokens).to.equal(0);
        });
      }

      it('takes the keys from a jwks_uri, and refuses one over its 20,480-byte cap', async () => {
        const pair = await generateKeyPair('RS256');
        privateKey = pair.privateKey;
        const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'r1' };
        docs.answers.set('/jwks.json', { body: { keys: [jwk] } });
        clientId = docs.publish('/by-uri.json', {
          redirect_uris: [docs.url('/cb')],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: docs.url('/jwks.json'),
        });
        const rsaAssertion = async () => {
          const now = Math.floor(Date.now() / 1000);
          return new SignJWT({
            iss: clientId,
            sub: clientId,
            aud: server.config.publicUrl,
            exp: now + 60,
            jti: randomUUID(),
          })
            .setProtectedHeader({ alg: 'RS256', kid: 'r1' })
            .sign(privateKey);
        };
        const first = await allow(clientId, docs.url('/cb'));
        const token = await exchange(server.url, {
          ...first.fields,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await rsaAssertion(),
        });
        expect(token.status, token.text).to.equal(200);

        docs.answers.set('/jwks.json', { body: { keys: [jwk], padding: 'x'.repeat(20_500) } });
        const second = await allow(clientId, docs.url('/cb'));
        const refused = await exchange(server.url, {
          ...second.fields,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await rsaAssertion(),
        });
        expect(refused.status, refused.text).to.equal(401);
        expect(refused.json.error_description).to.match(/jwks_uri/);
        expect((await issuedTo(clientId)).tokens).to.equal(1);
      });

      it('refuses an assertion from a client whose document does not declare private_key_jwt', async () => {
        const publicClient = docs.publish('/public.json', { redirect_uris: [docs.url('/cb')] });
        const { fields } = await allow(publicClient, docs.url('/cb'));
        clientId = publicClient;
        const answer = await exchange(server.url, {
          ...fields,
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await assertion(),
        });
        expect(answer.status, answer.text).to.equal(401);
        expect((await issuedTo(publicClient)).tokens).to.equal(0);
      });
    });
  });
}

describe('Client assertions replayed to another instance on the same store (sqlite)', () => {
  let first: TestServer;
  let second: TestServer;
  let docs: FakeClientDocuments;

  before(async () => {
    first = await startServer('sqlite');
    second = await startServer('sqlite', { dir: first.dir, background: false });
    docs = await new FakeClientDocuments().start();
  });
  after(async () => {
    await second.close();
    await first.close();
    await docs.stop();
  });

  it('refuses at one instance an assertion another instance accepted', async () => {
    const pair = await generateKeyPair('ES256');
    const clientId = docs.publish('/shared.json', {
      redirect_uris: [docs.url('/cb')],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [await exportJWK(pair.publicKey)] },
    });
    const now = Math.floor(Date.now() / 1000);
    const signed = await new SignJWT({
      iss: clientId,
      sub: clientId,
      aud: first.config.publicUrl,
      exp: now + 60,
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(pair.privateKey);
    const browser = await signedInBrowser(first.url, 'grace', PASSWORD);
    const codeFor = async () => {
      const { verifier, challenge } = pkce();
      const page = await browser.get(
        `/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: docs.url('/cb') })}`,
      );
      const back = callbackOf(
        await browser.submit('/oauth/authorize', { ...consentFields(page.text), decision: 'allow' }),
      );
      return {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: docs.url('/cb'),
        code_verifier: verifier,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: signed,
      };
    };
    expect((await exchange(first.url, await codeFor())).status).to.equal(200);
    const replayed = await exchange(second.url, await codeFor());
    expect(replayed.status, replayed.text).to.equal(401);
    expect(replayed.json.error_description).to.match(/used before/);
  });
});

describe('Client metadata documents under the outbound rules (L1_ALLOW_PRIVATE=false)', () => {
  let server: TestServer;
  let docs: FakeClientDocuments;

  before(async () => {
    server = await startServer('memory', { env: { L1_ALLOW_PRIVATE: 'false' } });
    docs = await new FakeClientDocuments().start();
  });
  after(async () => {
    await server.close();
    await docs.stop();
  });

  it('never fetches a document from a loopback address, and refuses the client with an error page', async () => {
    const browser = await signedInBrowser(server.url, 'heidi', PASSWORD);
    const port = new URL(docs.origin).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const clientId = `https://${host}/client.json`;
      const { challenge } = pkce();
      const page = await browser.get(
        `/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: `https://${host}/client.json/cb` })}`,
      );
      expect(page.status, host).to.equal(400);
      expect(page.headers.get('location'), host).to.equal(null);
    }
    expect(docs.fetches).to.deep.equal([]);
  });
});
