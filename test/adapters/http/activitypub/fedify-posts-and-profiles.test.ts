// Issue 25 against a real remote server (API.md §4.1, §4.2): a Fedify peer on 127.0.0.1 follows alice and reads
// what arrives with Fedify's own vocabulary and verifiers — an asset as a Note with its picture, its edit as an
// Update of that Note, a profile change as a signed Update{Person}, the actor with its profile through
// lookupObject, and a deleted avatar taking the profile's Update along, end to end over HTTP.
import {
  Create,
  Document,
  Hashtag,
  Image,
  Note,
  OrderedCollection,
  Person,
  PropertyValue,
  Update,
  type Object as ASObject,
} from '@fedify/fedify';
import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { FedifyPeer, loaders, lookUp, parseAs, type Received } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  assetBody,
  BROWSER_ACCEPT,
  PUBLIC,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Every item of an async iterable (Fedify's getAttachments, getTags, getItems). */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

/** The object of a delivered activity, as Fedify's vocabulary reads it. */
async function objectOf(received: Received): Promise<ASObject | null> {
  const activity = await parseAs(received.body);
  expect(activity, `a ${received.body.type}`).to.be.instanceOf(
    received.body.type === 'Create' ? Create : Update,
  );
  return (activity as Create | Update).getObject(loaders);
}

const isNoteUpdate = (r: Received) => r.body.type === 'Update' && r.body.object?.type === 'Note';
const isProfileUpdate = (r: Received) => r.body.type === 'Update' && r.body.object?.type === 'Person';

for (const store of STORES) {
  describe(`posts and profiles as a Fedify peer sees them (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let aliceActor: string;
    let peer: FedifyPeer;

    /** Registers an asset of alice's with any API field (alt_text, sensitive…) and returns the 201 body. */
    const register = async (name: string, fields: Record<string, unknown> = {}): Promise<Json> => {
      const response = await api.post('/assets', { ...assetBody(name), ...fields }, { token: alice });
      expect(response.status, response.text).to.equal(201);
      return response.json;
    };
    const patchProfile = async (changes: Record<string, unknown>): Promise<Json> => {
      const response = await api.send('PATCH', '/users/alice', changes, { token: alice });
      expect(response.status, response.text).to.equal(200);
      return response.json;
    };
    /** Both signatures of a delivery, checked by Fedify: HTTP (verifyRequest) and Linked Data (verifyJsonLd). */
    const expectSignedByAlice = (received: Received) => {
      expect(received.httpSignedBy, 'HTTP signature (Fedify verifyRequest)').to.equal(
        `${aliceActor}#main-key`,
      );
      expect(received.ldVerified, 'LD signature (Fedify verifyJsonLd)').to.equal(true);
      expect(received.path, 'the shared inbox').to.equal('/inbox');
    };

    beforeEach(async () => {
      server = await startServer(store, { publicUrlIsServer: true });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      aliceActor = `${server.url}/users/alice`;
      peer = await FedifyPeer.start({ authorizedFetch: true });
      await peer.send(`${server.url}/users/alice/inbox`, peer.follow(aliceActor));
      await peer.waitFor((r) => r.body.type === 'Accept');
    });
    afterEach(async () => {
      await server.close();
      await peer.close();
    });

    it('receives an image asset as a Create of a Note with one Document, its audience, linked hashtags and a page', async () => {
      await register('sunset', {
        description: 'Sunset over the harbour',
        alt_text: 'An orange sun sinking behind cranes',
        tags: ['art', 'sea'],
      });

      const delivered = await peer.waitFor((r) => r.body.type === 'Create');
      expectSignedByAlice(delivered);
      const note = await objectOf(delivered);
      expect(note).to.be.instanceOf(Note);
      if (!(note instanceof Note)) return;
      expect(note.id?.href).to.equal(`${server.url}/assets/sunset`);
      expect(note.attributionId?.href).to.equal(aliceActor);
      expect(note.toIds.map(String), 'to, on the object').to.deep.equal([PUBLIC]);
      expect(note.ccIds.map(String), 'cc, on the object').to.deep.equal([`${aliceActor}/followers`]);
      expect(note.sensitive).to.equal(false);
      expect(String(note.content)).to.include('Sunset over the harbour');

      const attachments = await all(note.getAttachments(loaders));
      expect(attachments).to.have.length(1);
      const [picture] = attachments;
      expect(picture).to.be.instanceOf(Document);
      if (!(picture instanceof Document)) return;
      expect(picture.mediaType).to.equal('image/png');
      expect(String(picture.url)).to.equal('https://cdn.example/sunset.png');
      expect(String(picture.name)).to.equal('An orange sun sinking behind cranes');

      const tags = await all(note.getTags(loaders));
      expect(tags.map((t) => (t instanceof Hashtag ? String(t.name) : null))).to.deep.equal(['#art', '#sea']);
      for (const tag of tags) {
        const href = (tag as Hashtag).href!;
        expect(href.href.startsWith(`${server.url}/tags/`)).to.equal(true);
        const page = await fetch(href, { headers: { accept: 'application/json' } });
        expect(page.status, href.href).to.equal(200);
        const listed = (await page.json()) as Json;
        expect(listed.items.map((a: Json) => a.name)).to.deep.equal(['sunset']);
      }

      const url = note.url as URL;
      expect(url.href).to.equal(`${server.url}/assets/sunset`);
      const html = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
      expect(html.status).to.equal(200);
      expect(html.headers.get('content-type')).to.match(/^text\/html/);
      expect(await html.text()).to.include('https://cdn.example/sunset.png');
    });

    it('receives a PATCH as an Update of the same Note with a later `updated`, signed both ways', async () => {
      await register('sunset');
      const created = await objectOf(await peer.waitFor((r) => r.body.type === 'Create'));

      const patched = await api.send(
        'PATCH',
        '/assets/sunset',
        { description: 'Now with gulls', alt_text: 'Gulls over the sun' },
        { token: alice },
      );
      expect(patched.status, patched.text).to.equal(200);

      const delivered = await peer.waitFor(isNoteUpdate);
      expectSignedByAlice(delivered);
      const edited = await objectOf(delivered);
      expect(edited).to.be.instanceOf(Note);
      if (!(edited instanceof Note) || !(created instanceof Note)) return;
      expect(edited.id?.href, 'the same object').to.equal(created.id?.href);
      expect(created.updated, 'a new Note has no updated').to.equal(null);
      expect(edited.updated, 'updated').to.not.equal(null);
      expect(edited.updated!.epochMilliseconds).to.be.greaterThan(created.published!.epochMilliseconds);
      expect(String(edited.content)).to.include('Now with gulls');
      const [picture] = await all(edited.getAttachments(loaders));
      expect(String((picture as Document).name)).to.equal('Gulls over the sun');
    });

    it('receives a profile change as a signed Update{Person} with the new summary and icon', async () => {
      await register('face', {
        media_type: 'image/jpeg',
        url: 'https://cdn.example/face.jpg',
        alt_text: 'Alice',
      });
      await peer.waitFor((r) => r.body.type === 'Create');

      await patchProfile({ display_name: 'Alice L.', bio: 'Paints harbours.', avatar: 'face' });

      const delivered = await peer.waitFor(isProfileUpdate);
      expectSignedByAlice(delivered);
      expect(delivered.body.id).to.match(new RegExp(`^${aliceActor}#updates/\\d+$`));
      const person = await objectOf(delivered);
      expect(person).to.be.instanceOf(Person);
      if (!(person instanceof Person)) return;
      expect(person.id?.href).to.equal(aliceActor);
      expect(String(person.name)).to.equal('Alice L.');
      expect(String(person.summary)).to.equal('<p>Paints harbours.</p>');
      const icon = await person.getIcon(loaders);
      expect(icon).to.be.instanceOf(Image);
      expect(String(icon?.url)).to.equal('https://cdn.example/face.jpg');
      expect(icon?.mediaType).to.equal('image/jpeg');
      expect(String(icon?.name)).to.equal('Alice');

      // A second change is another Update, with an id of its own.
      await patchProfile({ bio: 'Paints harbours and gulls.' });
      const second = await peer.waitFor((r) => isProfileUpdate(r) && r.body.id !== delivered.body.id);
      expectSignedByAlice(second);
      expect(second.body.object.summary).to.equal('<p>Paints harbours and gulls.</p>');
    });

    it('looks up the actor with its icon, summary, PropertyValue fields and a featured collection of Notes', async () => {
      await register('face', { alt_text: 'Alice' });
      await register('sunset');
      await register('harbour');
      await patchProfile({
        bio: 'Paints harbours.',
        avatar: 'face',
        fields: [
          { name: 'Website', value: 'https://alice.example' },
          { name: 'Pronouns', value: 'she/her' },
        ],
        pinned: ['harbour', 'sunset'],
      });

      const person = await lookUp(aliceActor);
      expect(person).to.be.instanceOf(Person);
      if (!(person instanceof Person)) return;
      expect(String(person.summary)).to.equal('<p>Paints harbours.</p>');
      expect(String((await person.getIcon(loaders))?.url)).to.equal('https://cdn.example/face.png');
      const fields = await all(person.getAttachments(loaders));
      expect(fields.every((f) => f instanceof PropertyValue)).to.equal(true);
      expect(
        fields.map((f) => [String((f as PropertyValue).name), String((f as PropertyValue).value)]),
      ).to.deep.equal([
        ['Website', '<a href="https://alice.example" rel="me nofollow noopener">https://alice.example</a>'],
        ['Pronouns', 'she/her'],
      ]);
      expect(person.featuredId?.href).to.equal(`${aliceActor}/featured`);
      const featured = await person.getFeatured(loaders);
      expect(featured).to.be.instanceOf(OrderedCollection);
      const pinned = await all(featured!.getItems(loaders));
      expect(pinned.every((item) => item instanceof Note)).to.equal(true);
      expect(pinned.map((item) => (item as Note).id?.href)).to.deep.equal([
        `${server.url}/assets/harbour`,
        `${server.url}/assets/sunset`,
      ]);
    });

    it('deletes an avatar and a pin out of the profile in the asset’s write, and delivers that profile’s Update', async () => {
      await register('face', { alt_text: 'Alice' });
      await register('sunset');
      await patchProfile({ bio: 'Paints harbours.', avatar: 'face', pinned: ['sunset', 'face'] });
      const before = await peer.waitFor(isProfileUpdate);
      expect(before.body.object.icon.url).to.equal('https://cdn.example/face.png');

      const deleted = await api.send('DELETE', '/assets/face', undefined, { token: alice });
      expect(deleted.status, deleted.text).to.equal(200);

      // The profile changed with the asset: the answer is back, and the profile already shows neither.
      const user = await api.get('/users/alice', { headers: { accept: 'application/json' } });
      expect(user.json).to.deep.include({ avatar: null, pinned: ['sunset'] });
      const gone = await peer.waitFor((r) => r.body.type === 'Delete');
      expectSignedByAlice(gone);
      expect(gone.body.object.id).to.equal(`${server.url}/assets/face`);
      const after = await peer.waitFor((r) => isProfileUpdate(r) && r.body.id !== before.body.id);
      expectSignedByAlice(after);
      const person = await objectOf(after);
      expect(person).to.be.instanceOf(Person);
      expect(after.body.object).to.not.have.property('icon');
      expect(after.body.object.summary).to.equal('<p>Paints harbours.</p>');
      const featured = await api.get('/users/alice/featured', { headers: { accept: AP_ACCEPT } });
      expect(featured.json.orderedItems.map((n: Json) => n.id)).to.deep.equal([
        `${server.url}/assets/sunset`,
      ]);

      // Deleting the last pin changes the profile again: one more Update.
      await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
      const third = await peer.waitFor(
        (r) => isProfileUpdate(r) && r.body.id !== before.body.id && r.body.id !== after.body.id,
      );
      expectSignedByAlice(third);
      const again = await api.get('/users/alice/featured', { headers: { accept: AP_ACCEPT } });
      expect(again.json).to.deep.include({ totalItems: 0, orderedItems: [] });
    });
  });
}
