import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import jsonldModule from 'jsonld';
import { client, registerUser, request } from '../../../support/http.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  AS,
  BASE,
  BROWSER_ACCEPT,
  createAsset,
  expectAp,
  expectHtml,
  expectProblem,
  expectVaryAccept,
  getAs,
  isoMillis,
  keysOf,
  LD_ACCEPT,
  localPath,
  SECURITY_V1,
  startServer,
  STORES,
  walkNext,
  walkPrev,
  type Api,
} from '../registry/support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };
const usernames = (page: { items: { username: string }[] }) => page.items.map((u) => u.username);

/** The actor document of API.md §4 for `u`, but for the two values only the server knows. */
function expectedActor(u: string, published: string, publicKeyPem: string) {
  const id = `${BASE}/users/${u}`;
  return {
    '@context': [
      AS,
      SECURITY_V1,
      {
        Hashtag: 'as:Hashtag',
        sensitive: 'as:sensitive',
        digestMultibase: 'https://w3id.org/security#digestMultibase',
        manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
        toot: 'http://joinmastodon.org/ns#',
        featured: { '@id': 'toot:featured', '@type': '@id' },
        discoverable: 'toot:discoverable',
        indexable: 'toot:indexable',
        schema: 'http://schema.org#',
        PropertyValue: 'schema:PropertyValue',
        value: 'schema:value',
        alsoKnownAs: { '@id': 'as:alsoKnownAs', '@type': '@id' },
        movedTo: { '@id': 'as:movedTo', '@type': '@id' },
      },
    ],
    id,
    type: 'Person',
    preferredUsername: u,
    name: u,
    url: id,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    following: `${id}/following`,
    featured: `${id}/featured`,
    endpoints: { sharedInbox: `${BASE}/inbox` },
    published,
    manuallyApprovesFollowers: false,
    discoverable: true,
    indexable: false,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
  };
}

/** Asserts `pem` is an SPKI PEM of a 2048-bit RSA public key. */
function expectRsa2048Spki(pem: string): void {
  expect(pem).to.match(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n?$/);
  const key = createPublicKey(pem);
  expect(key.asymmetricKeyType).to.equal('rsa');
  expect(key.asymmetricKeyDetails?.modulusLength).to.equal(2048);
}

for (const store of STORES) {
  describe(`users and actors (${store})`, () => {
    let server: TestServer;
    let api: Api;

    afterEach(() => server?.close());

    describe('GET /users', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
      });

      it('lists {username, actor, created_at} newest first with a total', async () => {
        const names = ['alice', 'bob', 'carol'];
        for (const name of names) await registerUser(server.url, name);
        const response = await api.get('/users', JSON_ACCEPT);
        expect(response.status).to.equal(200);
        expectVaryAccept(response);
        expect(keysOf(response.json)).to.deep.equal(['items', 'next', 'prev', 'total']);
        expect(response.json).to.include({ total: 3, next: null, prev: null });
        expect(usernames(response.json)).to.deep.equal(['carol', 'bob', 'alice']);
        for (const user of response.json.items) {
          expect(keysOf(user)).to.deep.equal(['actor', 'created_at', 'username']);
          expect(user.actor).to.equal(`${BASE}/users/${user.username}`);
          isoMillis(user.created_at);
        }
      });

      it('pages with cursors: next to the end and prev back, every user once', async () => {
        const names = Array.from({ length: 11 }, (_, i) => `user_${String(i).padStart(2, '0')}`);
        for (const name of names) await registerUser(server.url, name);
        const pages = await walkNext(api, '/users?limit=4');
        expect(pages.map((p) => p.items.length)).to.deep.equal([4, 4, 3]);
        expect(pages.flatMap(usernames)).to.deep.equal(names.slice().reverse());
        expect(pages[0].prev).to.equal(null);
        expect(pages[0].next).to.match(/^http:\/\/l2\.test\/users\?/);
        const back = await walkPrev(api, pages.at(-1));
        expect(back.map(usernames).reverse()).to.deep.equal(pages.map(usernames));
      });

      it('answers 400 to limit=0 and limit=101, HTML by default and 406 to an AP Accept', async () => {
        expectProblem(await api.get('/users?limit=0', JSON_ACCEPT), 400, 'invalid_request');
        expectProblem(await api.get('/users?limit=101', JSON_ACCEPT), 400, 'invalid_request');
        await registerUser(server.url, 'alice');
        expect(expectHtml(await api.get('/users'))).to.include('alice');
        expectProblem(await getAs(api, '/users', AP_ACCEPT), 406, 'not_acceptable');
      });
    });

    describe('GET /users/{u}', () => {
      let alice: string;
      let bob: string;

      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice');
        bob = await registerUser(server.url, 'bob');
      });

      it('answers the JSON user with its empty profile to application/json', async () => {
        const response = await api.get('/users/alice', JSON_ACCEPT);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expectVaryAccept(response);
        expect(response.json).to.deep.include({
          username: 'alice',
          actor: `${BASE}/users/alice`,
          display_name: null,
          bio: null,
          avatar: null,
          header: null,
          fields: [],
          pinned: [],
          indexable: false,
          manually_approves_followers: false,
          also_known_as: [],
          moved_to: null,
        });
        expect(keysOf(response.json)).to.have.length(13);
        const me = await api.get('/auth/me', { token: alice });
        expect(response.json.created_at).to.equal(me.json.created_at);
      });

      for (const accept of [AP_ACCEPT, LD_ACCEPT, 'application/activity+json, application/ld+json']) {
        it(`answers the actor exactly as API.md §4 to Accept: ${accept}`, async () => {
          const response = await getAs(api, '/users/alice', accept);
          const actor = expectAp(response);
          expectVaryAccept(response);
          const createdAt = (await api.get('/users/alice', JSON_ACCEPT)).json.created_at;
          expect(actor).to.deep.equal(expectedActor('alice', createdAt, actor.publicKey.publicKeyPem));
        });
      }

      it('the actor @context holds the exact ActivityStreams and security/v1 strings', async () => {
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        expect(actor['@context']).to.be.an('array');
        expect(actor['@context']).to.include(AS);
        expect(actor['@context']).to.include(SECURITY_V1);
      });

      it('the actor id is the URL it is served from, and every link on it dereferences on this server', async () => {
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        expect(actor.id).to.equal(`${BASE}/users/alice`);
        expect(localPath(actor.id)).to.equal('/users/alice');
        for (const link of [actor.outbox, actor.followers, actor.following]) {
          const response = await getAs(api, localPath(link), AP_ACCEPT);
          expect(expectAp(response).id, link).to.equal(link);
        }
      });

      it('the actor id equals the webfinger self link', async () => {
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        const jrd = await api.get(
          `/.well-known/webfinger?resource=${encodeURIComponent('acct:alice@l2.test')}`,
        );
        const self = jrd.json.links.find((l: { rel: string }) => l.rel === 'self');
        expect(self.href).to.equal(actor.id);
      });

      it('publicKey is <actor>#main-key, owned by the actor, an SPKI PEM of a 2048-bit RSA key', async () => {
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        expect(actor.publicKey.id).to.equal(`${actor.id}#main-key`);
        expect(actor.publicKey.owner).to.equal(actor.id);
        expectRsa2048Spki(actor.publicKey.publicKeyPem);
      });

      it('two users have different keys', async () => {
        const a = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        const b = expectAp(await getAs(api, '/users/bob', AP_ACCEPT));
        expect(a.publicKey.publicKeyPem).to.not.equal(b.publicKey.publicKeyPem);
      });

      it('the actor is valid JSON-LD in safe mode: every term is defined by its @context', async () => {
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        const dir = new URL('../../../../src/adapters/crypto/ld-signature/contexts/', import.meta.url);
        const contexts: Record<string, unknown> = {
          [AS]: JSON.parse(readFileSync(new URL('activitystreams.json', dir), 'utf8')),
          [SECURITY_V1]: JSON.parse(readFileSync(new URL('security-v1.json', dir), 'utf8')),
        };
        const jsonld = (jsonldModule as unknown as () => typeof jsonldModule)();
        const documentLoader = async (url: string) => {
          if (!(url in contexts)) throw new Error(`no context ${url}`);
          return { contextUrl: null, documentUrl: url, document: contexts[url] };
        };
        const nquads = await jsonld.canonize(actor, {
          format: 'application/n-quads',
          documentLoader,
          safe: true,
        } as unknown as Parameters<typeof jsonld.canonize>[1]);
        expect(nquads).to.include('<http://joinmastodon.org/ns#discoverable>');
        expect(nquads).to.include('<https://www.w3.org/ns/activitystreams#manuallyApprovesFollowers>');
        expect(nquads).to.include('<https://w3id.org/security#publicKeyPem>');
      });

      it('answers the HTML profile by default and to a browser, listing the user’s assets and activities only', async () => {
        await createAsset(api, alice, 'alice-sunset');
        await createAsset(api, bob, 'bob-sea');
        await api.send('PATCH', '/assets/alice-sunset', { description: 'v2' }, { token: alice });
        for (const response of [
          await api.get('/users/alice'),
          await getAs(api, '/users/alice', BROWSER_ACCEPT),
        ]) {
          const html = expectHtml(response);
          expectVaryAccept(response);
          expect(html).to.include('alice');
          expect(html).to.include('alice-sunset');
          expect(html).to.include('href="/activities/0"');
          expect(html).to.include('href="/activities/2"');
          expect(html).to.not.include('bob-sea');
          expect(html).to.not.include('href="/activities/1"');
        }
      });

      it('answers 406 to image/png', async () => {
        expectProblem(await getAs(api, '/users/alice', 'image/png'), 406, 'not_acceptable');
      });

      it('sends Alice to the canonical lower-case URL, so an actor id always equals the URL it is served from', async () => {
        for (const accept of ['application/json', AP_ACCEPT, BROWSER_ACCEPT]) {
          const upper = await getAs(api, '/users/Alice', accept);
          expect(upper.status, accept).to.equal(301);
          expect(upper.headers.get('location'), accept).to.equal('/users/alice');
        }
        const outbox = await getAs(api, '/users/ALICE/outbox?page=true', AP_ACCEPT);
        expect(outbox.status).to.equal(301);
        expect(outbox.headers.get('location')).to.equal('/users/alice/outbox?page=true');
      });

      for (const suffix of ['', '/outbox', '/outbox?page=true', '/followers', '/following']) {
        it(`answers 404 for an unknown user at /users/{u}${suffix}, whatever the Accept`, async () => {
          for (const accept of ['application/json', AP_ACCEPT]) {
            expectProblem(await getAs(api, `/users/nobody${suffix}`, accept), 404, 'not_found');
          }
          expect((await getAs(api, `/users/nobody${suffix}`, BROWSER_ACCEPT)).status).to.equal(404);
          expect((await getAs(api, `/users/x${suffix}`, AP_ACCEPT)).status, 'invalid username').to.equal(404);
        });
      }
    });
  });
}

describe('actor keys from the real key generator', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ store: 'memory' });
  });
  after(() => server?.close());

  it('each registration gets its own 2048-bit RSA key, published as SPKI PEM', async () => {
    await registerUser(server.url, 'alice');
    await registerUser(server.url, 'bob');
    const pem = async (u: string) =>
      expectAp(
        await request('GET', `${server.url}/users/${u}`, undefined, { headers: { accept: AP_ACCEPT } }),
      ).publicKey.publicKeyPem as string;
    const [a, b] = [await pem('alice'), await pem('bob')];
    expectRsa2048Spki(a);
    expectRsa2048Spki(b);
    expect(a).to.not.equal(b);
  });
});
