// API.md §4.2 (profiles, PATCH /users/{u}, /users/{u}/featured) and §4.1's hashtag pages, from outside.
import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { verifyLdSignature } from '../../../support/independent-ld-verifier.js';
import { forgeToken, validClaims } from '../../../support/forge.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  BASE,
  createAsset,
  expectAp,
  expectProblem,
  getAs,
  keysOf,
  localPath,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };

for (const store of STORES) {
  describe(`profiles (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let bob: string;

    const patch = (body: unknown, token = alice, user = 'alice') =>
      api.send('PATCH', `/users/${user}`, body, { token });

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      bob = await registerUser(server.url, 'bob');
      await createAsset(api, alice, 'face', {
        url: 'https://cdn.example/face.png',
        alt_text: 'Alice smiling',
      });
      await createAsset(api, alice, 'banner', {
        url: 'https://cdn.example/banner.jpg',
        media_type: 'image/jpeg',
      });
      await createAsset(api, alice, 'notes', {
        url: 'https://cdn.example/notes.pdf',
        media_type: 'application/pdf',
      });
      await createAsset(api, bob, 'bobface', { url: 'https://cdn.example/bob.png' });
    });
    afterEach(() => server?.close());

    describe('PATCH /users/{u}', () => {
      it('sets every field and answers 200 with the JSON user, which GET /users/{u} then answers too', async () => {
        const response = await patch({
          display_name: 'Alice Liddell',
          bio: 'Paints skies.\n\nSee https://alice.example',
          avatar: 'face',
          header: 'banner',
          fields: [
            { name: 'Site', value: 'https://alice.example' },
            { name: 'Pronouns', value: 'she/her' },
          ],
          pinned: ['notes', 'face'],
          indexable: true,
        });

        expect(response.status, response.text).to.equal(200);
        const expected = {
          username: 'alice',
          actor: `${BASE}/users/alice`,
          display_name: 'Alice Liddell',
          bio: 'Paints skies.\n\nSee https://alice.example',
          avatar: 'face',
          header: 'banner',
          fields: [
            { name: 'Site', value: 'https://alice.example' },
            { name: 'Pronouns', value: 'she/her' },
          ],
          pinned: ['notes', 'face'],
          indexable: true,
        };
        expect(response.json).to.deep.include(expected);
        expect((await api.get('/users/alice', JSON_ACCEPT)).json).to.deep.equal(response.json);
      });

      it('changes only the fields given, and null clears one', async () => {
        expect((await patch({ display_name: 'Alice', bio: 'Hello', avatar: 'face' })).status).to.equal(200);
        const cleared = await patch({ bio: null, avatar: null });
        expect(cleared.status, cleared.text).to.equal(200);
        expect(cleared.json).to.include({ display_name: 'Alice', bio: null, avatar: null });
      });

      it('shows the profile in the actor: name, summary as HTML, icon, image, PropertyValue fields, featured, indexable', async () => {
        await patch({
          display_name: 'Alice <b>L</b>',
          bio: 'Line one\nline two\n\n<script>x</script> https://alice.example/a?b=1&c=2',
          avatar: 'face',
          header: 'banner',
          fields: [
            { name: 'Site', value: 'https://alice.example' },
            { name: 'Note', value: '<i>not html</i>' },
          ],
          indexable: true,
        });
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));

        expect(actor.name).to.equal('Alice <b>L</b>');
        expect(actor.summary).to.equal(
          '<p>Line one<br>line two</p><p>&lt;script&gt;x&lt;/script&gt; ' +
            '<a href="https://alice.example/a?b=1&amp;c=2" rel="nofollow noopener">https://alice.example/a?b=1&amp;c=2</a></p>',
        );
        expect(actor.icon).to.deep.equal({
          type: 'Image',
          mediaType: 'image/png',
          url: 'https://cdn.example/face.png',
          name: 'Alice smiling',
        });
        expect(actor.image).to.include({
          type: 'Image',
          mediaType: 'image/jpeg',
          url: 'https://cdn.example/banner.jpg',
        });
        expect(actor.attachment).to.deep.equal([
          {
            type: 'PropertyValue',
            name: 'Site',
            value: '<a href="https://alice.example" rel="me nofollow noopener">https://alice.example</a>',
          },
          { type: 'PropertyValue', name: 'Note', value: '&lt;i&gt;not html&lt;/i&gt;' },
        ]);
        expect(actor).to.include({
          featured: `${BASE}/users/alice/featured`,
          indexable: true,
          discoverable: true,
        });
      });

      it("refuses another user's profile and a token scoped to an L1 server with 403, and changes nothing", async () => {
        expectProblem(await patch({ bio: 'hacked' }, bob), 403, 'forbidden');
        const attach = await api.post(
          '/renderers/attach',
          { l1_server: 'https://l1.example' },
          { token: alice },
        );
        expect(attach.status, attach.text).to.equal(201);
        expectProblem(await patch({ bio: 'from an L1' }, attach.json.access_token), 403, 'forbidden');
        expect((await api.get('/users/alice', JSON_ACCEPT)).json.bio).to.equal(null);
      });

      it('answers 401 without a valid token and 404 for an unknown user', async () => {
        expectProblem(await api.send('PATCH', '/users/alice', { bio: 'x' }), 401, 'unauthenticated');
        const forged = forgeToken(validClaims(), { secret: 'not-the-secret-not-the-secret-not-the-secret' });
        expectProblem(await patch({ bio: 'x' }, forged), 401, 'token_invalid');
        expectProblem(await patch({ bio: 'x' }, alice, 'nobody'), 404, 'not_found');
      });

      for (const [label, body, path] of [
        ["another user's picture as avatar", { avatar: 'bobface' }, 'avatar'],
        ['a PDF as header', { header: 'notes' }, 'header'],
        ['an unknown asset as avatar', { avatar: 'ghost' }, 'avatar'],
        ["another user's asset as a pin", { pinned: ['face', 'bobface'] }, 'pinned'],
        ['six pins', { pinned: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'pinned'],
        ['a display name of 101 characters', { display_name: 'd'.repeat(101) }, 'display_name'],
        ['a bio of 2,001 characters', { bio: 'b'.repeat(2001) }, 'bio'],
        [
          'five fields',
          { fields: Array.from({ length: 5 }, (_, i) => ({ name: `n${i}`, value: 'v' })) },
          'fields',
        ],
        [
          'a field value of 501 characters',
          { fields: [{ name: 'n', value: 'v'.repeat(501) }] },
          'fields.0.value',
        ],
        ['a field with a value and no name', { fields: [{ name: ' ', value: 'v' }] }, 'fields.0.name'],
        ['indexable as a string', { indexable: 'yes' }, 'indexable'],
      ] as const) {
        it(`answers 400 invalid_request naming the field for ${label}, and changes nothing`, async () => {
          const body_ = expectProblem(await patch(body), 400, 'invalid_request');
          expect(body_.errors.map((e: { path: string }) => e.path)).to.include(path);
          const user = (await api.get('/users/alice', JSON_ACCEPT)).json;
          expect(user).to.deep.include({
            avatar: null,
            header: null,
            pinned: [],
            fields: [],
            display_name: null,
          });
        });
      }

      it('accepts the limits exactly: 100, 2,000, four fields of 100 and 500 characters, five pins', async () => {
        for (const name of ['p1', 'p2']) await createAsset(api, alice, name);
        const response = await patch({
          display_name: 'd'.repeat(100),
          bio: '🌅'.repeat(2000),
          fields: Array.from({ length: 4 }, (_, i) => ({ name: `${i}`.repeat(100), value: 'v'.repeat(500) })),
          pinned: ['face', 'banner', 'notes', 'p1', 'p2'],
        });
        expect(response.status, response.text).to.equal(200);
        expect(response.json.pinned).to.have.length(5);
      });

      it('drops a deleted avatar and pin from the profile and the actor', async () => {
        await patch({ avatar: 'face', pinned: ['face', 'notes'] });
        const deleted = await api.send('DELETE', '/assets/face', undefined, { token: alice });
        expect(deleted.status, deleted.text).to.equal(200);

        expect((await api.get('/users/alice', JSON_ACCEPT)).json).to.deep.include({
          avatar: null,
          pinned: ['notes'],
        });
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        expect(actor).to.not.have.property('icon');
      });

      it('drops an avatar whose asset loses its https URL or image type', async () => {
        await patch({ avatar: 'face', header: 'banner' });
        await api.send('PATCH', '/assets/face', { url: 'http://cdn.example/face.png' }, { token: alice });
        await api.send('PATCH', '/assets/banner', { media_type: 'video/mp4' }, { token: alice });
        expect((await api.get('/users/alice', JSON_ACCEPT)).json).to.include({ avatar: null, header: null });
      });
    });

    describe('GET /users/{u}/featured', () => {
      it('answers the pinned asset Notes, inline and in order, in JSON and ActivityStreams', async () => {
        await patch({ pinned: ['notes', 'face'] });
        for (const accept of [AP_ACCEPT, 'application/json']) {
          const response = await getAs(api, '/users/alice/featured', accept);
          expect(response.status, response.text).to.equal(200);
          const featured = JSON.parse(response.text);
          expect(featured).to.include({
            id: `${BASE}/users/alice/featured`,
            type: 'OrderedCollection',
            totalItems: 2,
          });
          expect(
            featured.orderedItems.map((n: { id: string; type: string }) => [n.type, n.id]),
          ).to.deep.equal([
            ['Note', `${BASE}/assets/notes`],
            ['Note', `${BASE}/assets/face`],
          ]);
          const object = expectAp(await getAs(api, '/assets/face', AP_ACCEPT));
          const { '@context': _context, ...note } = object;
          expect(featured.orderedItems[1]).to.deep.equal(note);
        }
      });

      it('is an empty collection for a user with no pins, and 404 for an unknown user', async () => {
        const featured = expectAp(await getAs(api, '/users/bob/featured', AP_ACCEPT));
        expect(featured).to.include({ totalItems: 0 });
        expect(featured.orderedItems).to.deep.equal([]);
        expectProblem(await getAs(api, '/users/nobody/featured', 'application/json'), 404, 'not_found');
      });

      it('is the collection the actor links to', async () => {
        const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
        expect(expectAp(await getAs(api, localPath(actor.featured), AP_ACCEPT)).id).to.equal(actor.featured);
      });
    });

    describe('GET /tags/{tag}', () => {
      beforeEach(async () => {
        await createAsset(api, alice, 'sea', { tags: ['Blue', 'water'] });
        await createAsset(api, bob, 'sky', { tags: ['blue'] });
        await createAsset(api, bob, 'gone', { tags: ['BLUE'] });
        expect((await api.send('DELETE', '/assets/gone', undefined, { token: bob })).status).to.equal(200);
      });

      it('lists the live assets carrying the tag in any case, newest first, in the list shape', async () => {
        for (const spelling of ['blue', 'BLUE', 'Blue']) {
          const response = await api.get(`/tags/${spelling}`, JSON_ACCEPT);
          expect(response.status, response.text).to.equal(200);
          expect(keysOf(response.json)).to.deep.equal(['items', 'next', 'prev', 'total']);
          expect(response.json.total).to.equal(2);
          expect(response.json.items.map((a: { name: string }) => a.name)).to.deep.equal(['sky', 'sea']);
        }
      });

      it('answers an empty list for a tag nobody uses, and pages with limit', async () => {
        const none = await api.get('/tags/nothing-here', JSON_ACCEPT);
        expect(none.status).to.equal(200);
        expect(none.json).to.deep.equal({ items: [], total: 0, next: null, prev: null });
        const first = await api.get('/tags/blue?limit=1', JSON_ACCEPT);
        expect(first.json.items.map((a: { name: string }) => a.name)).to.deep.equal(['sky']);
        const second = await api.get(localPath(first.json.next), JSON_ACCEPT);
        expect(second.json.items.map((a: { name: string }) => a.name)).to.deep.equal(['sea']);
        expect(second.json.next).to.equal(null);
      });

      it('is where every hashtag of a Note links to', async () => {
        const note = expectAp(await getAs(api, '/assets/sea', AP_ACCEPT));
        const href = note.tag.find((t: { name: string }) => t.name === '#Blue').href;
        const listed = await api.get(localPath(href), JSON_ACCEPT);
        expect(listed.json.items.map((a: { name: string }) => a.name)).to.include('sea');
      });

      it('an asset whose tag is removed leaves the tag page', async () => {
        await api.send('PATCH', '/assets/sea', { tags: ['water'] }, { token: alice });
        const listed = await api.get('/tags/blue', JSON_ACCEPT);
        expect(listed.json.items.map((a: { name: string }) => a.name)).to.deep.equal(['sky']);
      });
    });

    it('a signed Update of an asset still verifies once the asset is pinned and its owner has a profile', async () => {
      await patch({ display_name: 'Alice', pinned: ['face'] });
      const changed = await api.send('PATCH', '/assets/face', { alt_text: 'New alt' }, { token: alice });
      const activity = expectAp(await getAs(api, `/activities/${changed.json.activity.idx}`, AP_ACCEPT));
      const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
      expect(await verifyLdSignature(activity, actor.publicKey.publicKeyPem)).to.equal(true);
    });
  });
}
