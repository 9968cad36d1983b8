import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { verifyLdSignature } from '../../../support/independent-ld-verifier.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  AS,
  BASE,
  createAsset,
  expectAp,
  getAs,
  isoMillis,
  localPath,
  PUBLIC,
  SECURITY_V1,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const UNICODE = 'Ünïcödé 🌅 日本語 — «quotes» \'single\' "double" & ampersand\nsecond line';
const SCRIPT = '<script>alert(1)</script>';

const clone = (doc: Doc): Doc => JSON.parse(JSON.stringify(doc));
/** The signed context of API.md §4.1: every term used, with Mastodon's own definitions. */
const CONTEXT = [
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
  },
];
/** The Create of the asset named `name` in `activities`. */
const createOf = (activities: Doc[], name: string): Doc =>
  activities.find((a) => a.type === 'Create' && a.object.id === `${BASE}/assets/${name}`);
/** Changes the last character of a string to another one. */
const oneCharOff = (text: string): string => text.slice(0, -1) + (text.endsWith('x') ? 'y' : 'x');

for (const store of STORES) {
  describe(`RsaSignature2017 on every activity (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alicePem: string;
    let bobPem: string;
    /** Every activity in alice's outbox, newest first, as served there. */
    let outbox: Doc[];

    /** All items of a user's outbox, walking from first via next. */
    async function outboxItems(user: string): Promise<Doc[]> {
      const collection = expectAp(await getAs(api, `/users/${user}/outbox`, AP_ACCEPT));
      const items: Doc[] = [];
      let url: string | null = `${collection.first}&limit=3`;
      while (url) {
        const page = expectAp(await getAs(api, localPath(url), AP_ACCEPT));
        items.push(...page.orderedItems);
        url = page.next ?? null;
      }
      expect(items).to.have.length(collection.totalItems);
      return items;
    }

    before(async () => {
      server = await startServer(store);
      api = client(server.url);
      const alice = await registerUser(server.url, 'alice');
      const bob = await registerUser(server.url, 'bob');
      await createAsset(api, alice, 'sunset', { description: 'Red sky', tags: ['art', 'sky'] });
      await createAsset(api, bob, 'sea', { description: 'Blue' });
      await createAsset(api, alice, 'unicode', { description: UNICODE, tags: ['日本', 'ünï', 'emoji🌅'] });
      await createAsset(api, alice, 'hostile', {
        description: `${SCRIPT} "><img src=x onerror=alert(1)>`,
        tags: [SCRIPT],
        media_type: 'video/mp4',
      });
      await createAsset(api, alice, 'bare', { url: null, description: '', tags: [] });
      await createAsset(api, alice, 'doc', { media_type: 'application/pdf' });
      const patched = await api.send(
        'PATCH',
        '/assets/sunset',
        { description: `Purple ${UNICODE}`, tags: ['dusk'], media_type: 'audio/ogg' },
        { token: alice },
      );
      expect(patched.status, patched.text).to.equal(200);
      const deleted = await api.send('DELETE', '/assets/hostile', undefined, { token: alice });
      expect(deleted.status, deleted.text).to.equal(200);
      alicePem = expectAp(await getAs(api, '/users/alice', AP_ACCEPT)).publicKey.publicKeyPem;
      bobPem = expectAp(await getAs(api, '/users/bob', AP_ACCEPT)).publicKey.publicKeyPem;
      outbox = await outboxItems('alice');
    });
    after(() => server?.close());

    it("alice's outbox holds her Creates, the Update and the Delete", () => {
      expect(outbox.map((a) => a.type)).to.deep.equal([
        'Delete',
        'Update',
        'Create',
        'Create',
        'Create',
        'Create',
        'Create',
      ]);
    });

    it("every activity in alice's outbox verifies with the publicKeyPem of her actor", async () => {
      for (const activity of outbox) {
        expect(await verifyLdSignature(activity, alicePem), `${activity.type} ${activity.id}`).to.equal(true);
      }
    });

    it("bob's activity verifies with bob's key", async () => {
      const items = await outboxItems('bob');
      expect(items).to.have.length(1);
      expect(await verifyLdSignature(items[0], bobPem)).to.equal(true);
    });

    it("no activity of alice verifies with bob's key", async () => {
      for (const activity of outbox) {
        expect(await verifyLdSignature(activity, bobPem), activity.id).to.equal(false);
      }
    });

    it('each activity has the shape of API.md §4', () => {
      for (const activity of outbox) {
        expect(activity['@context'], activity.id).to.deep.equal(CONTEXT);
        expect(activity.actor).to.equal(`${BASE}/users/alice`);
        expect(activity.to).to.deep.equal([PUBLIC]);
        expect(activity.cc).to.deep.equal([`${BASE}/users/alice/followers`]);
        expect(activity.id).to.match(/^http:\/\/l2\.test\/activities\/\d+$/);
        isoMillis(activity.published);
        expect(activity.signature.type).to.equal('RsaSignature2017');
        expect(activity.signature.creator).to.equal(`${BASE}/users/alice#main-key`);
        expect(Date.parse(activity.signature.created)).to.not.be.NaN;
        expect(activity.signature.signatureValue).to.match(/^[A-Za-z0-9+/]+={0,2}$/);
        expect(Buffer.from(activity.signature.signatureValue, 'base64')).to.have.length(256);
      }
    });

    it('a Create carries the asset as a Note of API.md §4.1', () => {
      const create = createOf(outbox, 'unicode');
      expect(create.object).to.deep.include({
        id: `${BASE}/assets/unicode`,
        type: 'Note',
        attributedTo: `${BASE}/users/alice`,
        to: [PUBLIC],
        cc: [`${BASE}/users/alice/followers`],
        url: `${BASE}/assets/unicode`,
        sensitive: false,
      });
      expect(create.object.content).to.equal(
        '<p><strong>unicode</strong></p>' +
          '<p>Ünïcödé 🌅 日本語 — «quotes» &#39;single&#39; &quot;double&quot; &amp; ampersand<br>second line</p>' +
          `<p><a href="${BASE}/tags/%E6%97%A5%E6%9C%AC" class="mention hashtag" rel="tag">#<span>日本</span></a> ` +
          `<a href="${BASE}/tags/%C3%BCn%C3%AF" class="mention hashtag" rel="tag">#<span>ünï</span></a> ` +
          `<a href="${BASE}/tags/emoji%F0%9F%8C%85" class="mention hashtag" rel="tag">#<span>emoji🌅</span></a></p>`,
      );
      expect(create.object.attachment).to.have.length(1);
      expect(create.object.attachment[0]).to.include({
        type: 'Document',
        mediaType: 'image/png',
        url: 'https://cdn.example/unicode.png',
      });
      isoMillis(create.object.published);
      expect(create.object.tag).to.deep.equal([
        { type: 'Hashtag', href: `${BASE}/tags/%E6%97%A5%E6%9C%AC`, name: '#日本' },
        { type: 'Hashtag', href: `${BASE}/tags/%C3%BCn%C3%AF`, name: '#ünï' },
        { type: 'Hashtag', href: `${BASE}/tags/emoji%F0%9F%8C%85`, name: '#emoji🌅' },
      ]);
      const bare = createOf(outbox, 'bare');
      expect(bare.object.type).to.equal('Note');
      expect(bare.object).to.not.have.property('attachment');
      expect(bare.object.tag).to.deep.equal([]);
      const doc = createOf(outbox, 'doc');
      expect(doc.object.type).to.equal('Note');
      expect(doc.object).to.not.have.property('attachment');
      expect(doc.object.content).to.include('<a href="https://cdn.example/doc.png"');
    });

    it('the Update carries the new state; the Delete carries a Tombstone', () => {
      const update = outbox.find((a) => a.type === 'Update');
      expect(update.object).to.deep.include({ id: `${BASE}/assets/sunset`, type: 'Note' });
      expect(update.object.attachment[0]).to.include({ mediaType: 'audio/ogg' });
      isoMillis(update.object.updated);
      expect(update.object.tag).to.deep.equal([
        { type: 'Hashtag', href: `${BASE}/tags/dusk`, name: '#dusk' },
      ]);
      const del = outbox.find((a) => a.type === 'Delete');
      expect(del.object).to.include({ id: `${BASE}/assets/hostile`, type: 'Tombstone' });
    });

    it('the standalone /activities/{idx} copy is deep-equal to the outbox item and verifies too', async () => {
      for (const activity of outbox) {
        const standalone = expectAp(await getAs(api, localPath(activity.id), AP_ACCEPT));
        expect(standalone, activity.id).to.deep.equal(activity);
        expect(await verifyLdSignature(standalone, alicePem), activity.id).to.equal(true);
      }
    });

    describe('a one-character change breaks verification', () => {
      const original = (): Doc => createOf(outbox, 'unicode');

      it('sanity: the untouched copy verifies', async () => {
        expect(await verifyLdSignature(clone(original()), alicePem)).to.equal(true);
      });

      for (const [label, tamper] of [
        ['object.url', (d: Doc) => (d.object.url = oneCharOff(d.object.url))],
        [
          'object.attachment',
          (d: Doc) => (d.object.attachment[0].name = oneCharOff(d.object.attachment[0].name)),
        ],
        ['object.sensitive', (d: Doc) => (d.object.sensitive = !d.object.sensitive)],
        ['object.content', (d: Doc) => (d.object.content = oneCharOff(d.object.content))],
        [
          'published',
          (d: Doc) =>
            (d.published = d.published.replace(/\d(?=\.\d{3}Z$|Z$)/, (c: string) =>
              String((Number(c) + 1) % 10),
            )),
        ],
        ['actor', (d: Doc) => (d.actor = oneCharOff(d.actor))],
        ['object.tag', (d: Doc) => (d.object.tag[0].name = oneCharOff(d.object.tag[0].name))],
        ['object.attributedTo', (d: Doc) => (d.object.attributedTo = oneCharOff(d.object.attributedTo))],
        ['to', (d: Doc) => (d.to = [oneCharOff(d.to[0])])],
        [
          'signature.created',
          (d: Doc) =>
            (d.signature.created = d.signature.created.replace(/\d(?=\.\d{3}Z$|Z$)/, (c: string) =>
              String((Number(c) + 1) % 10),
            )),
        ],
      ] as const) {
        it(`a change to ${label}`, async () => {
          const tampered = clone(original());
          tamper(tampered);
          expect(JSON.stringify(tampered)).to.not.equal(JSON.stringify(original()));
          expect(await verifyLdSignature(tampered, alicePem)).to.equal(false);
        });
      }

      it('no value of any activity is left unsigned: changing any string in it breaks verification', async () => {
        /** Paths of every string leaf outside @context and the signature value. */
        const leaves = (value: Doc, path: (string | number)[] = []): (string | number)[][] => {
          if (typeof value === 'string') return [path];
          if (value === null || typeof value !== 'object') return [];
          return Object.entries(value).flatMap(([key, child]) =>
            key === '@context' || key === 'signatureValue'
              ? []
              : leaves(child, [...path, Array.isArray(value) ? Number(key) : key]),
          );
        };
        let checked = 0;
        for (const activity of outbox) {
          for (const path of leaves(activity)) {
            checked++;
            const tampered = clone(activity);
            let parent = tampered;
            for (const key of path.slice(0, -1)) parent = parent[key];
            const last = path.at(-1)!;
            parent[last] = parent[last] === '' ? 'x' : oneCharOff(parent[last]);
            expect(await verifyLdSignature(tampered, alicePem), `${activity.id} ${path.join('.')}`).to.equal(
              false,
            );
          }
        }
        expect(checked).to.be.above(outbox.length * 10);
      });

      it('a change to actor together with the signature creator still fails', async () => {
        const tampered = clone(original());
        tampered.actor = `${BASE}/users/bob`;
        tampered.signature.creator = `${BASE}/users/bob#main-key`;
        expect(await verifyLdSignature(tampered, alicePem)).to.equal(false);
        expect(await verifyLdSignature(tampered, bobPem)).to.equal(false);
      });
    });
  });
}
