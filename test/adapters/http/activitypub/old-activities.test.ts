// API.md §4: activities already in the log keep the document they were signed with, byte for byte; only new ones
// take issue 25's shape. An activity of the old shape (an Image whose url is the file, under the old context) is
// written straight into the store, signed with the user's key, as a log from before issue 25 holds it; the service
// serves it unchanged beside new Notes, and Fedify still verifies both.
import { verifyJsonLd } from '@fedify/fedify';
import { expect } from 'chai';
import { JsonLdActivitySigner } from '../../../../src/adapters/crypto/ld-signature/json-ld-activity-signer.js';
import type { Activity } from '../../../../src/domain/activity.js';
import type { Asset, AssetName } from '../../../../src/domain/asset.js';
import type { Username } from '../../../../src/domain/user.js';
import { loaders } from '../../../support/fedify-peer.js';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  contentHash,
  createAsset,
  PUBLIC,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ALICE = 'alice' as Username;

for (const store of STORES) {
  describe(`activities signed before issue 25 (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let base: string;
    /** The old Create exactly as it was signed and stored. */
    let old: Json;

    const apGet = async (path: string) => {
      const response = await api.get(path, { headers: { accept: AP_ACCEPT } });
      expect(response.status, response.text).to.equal(200);
      return response;
    };

    beforeEach(async () => {
      server = await startServer(store, { publicUrlIsServer: true });
      api = client(server.url);
      base = server.url;
      alice = await registerUser(server.url, 'alice');
      const user = (await server.parts.store.users.findByUsername(ALICE))!;
      const published = new Date(Date.now() - 86_400_000);
      const asset: Asset = {
        name: 'old-sunset' as AssetName,
        owner: ALICE,
        contentHash: contentHash('old-sunset'),
        mediaType: 'image/png',
        url: 'https://cdn.example/old-sunset.png',
        description: 'Red <sky>',
        altText: null,
        sensitive: false,
        tags: ['art'],
        createdAt: published,
        updatedAt: published,
        deletedAt: null,
      };
      const idx = await server.parts.store.activities.nextIdx();
      // The document L2 signed before issue 25 (src/domain/activity-streams.ts at 72f6a9f), byte for byte.
      const unsigned = {
        '@context': [
          'https://www.w3.org/ns/activitystreams',
          'https://w3id.org/security/v1',
          { Hashtag: 'as:Hashtag' },
        ],
        id: `${base}/activities/${idx}`,
        type: 'Create',
        actor: `${base}/users/alice`,
        published: published.toISOString(),
        to: [PUBLIC],
        cc: [`${base}/users/alice/followers`],
        object: {
          id: `${base}/assets/old-sunset`,
          type: 'Image',
          name: 'old-sunset',
          attributedTo: `${base}/users/alice`,
          mediaType: 'image/png',
          url: 'https://cdn.example/old-sunset.png',
          content: 'Red &lt;sky&gt;',
          published: published.toISOString(),
          tag: [{ type: 'Hashtag', name: '#art' }],
        },
      };
      old = await new JsonLdActivitySigner().sign(
        unsigned,
        { privateKeyPem: user.privateKeyPem, keyId: `${base}/users/alice#main-key` },
        published,
      );
      const activity: Activity = {
        idx,
        type: 'Create',
        actor: ALICE,
        object: asset.name,
        published,
        document: structuredClone(old),
      };
      expect(await server.parts.store.activities.append(activity, { kind: 'create', asset })).to.equal(
        'appended',
      );
    });
    afterEach(() => server.close());

    it('serves the old Create byte for byte as it was signed, and Fedify still verifies it', async () => {
      const response = await apGet('/activities/0');
      expect(response.text).to.equal(JSON.stringify(old));
      expect(await verifyJsonLd(JSON.parse(response.text), loaders)).to.equal(true);
    });

    it('gives new activities the new shape, and an outbox page holds both, each exactly as signed', async () => {
      const created = await createAsset(api, alice, 'new-sunset');
      const patched = await api.send(
        'PATCH',
        '/assets/old-sunset',
        { description: 'Redder' },
        { token: alice },
      );
      expect(patched.status, patched.text).to.equal(200);

      const page = JSON.parse((await apGet('/users/alice/outbox?page=true')).text);
      const items: Json[] = page.orderedItems;
      expect(items.map((a) => [a.type, a.object.type, a.object.id])).to.deep.equal([
        ['Update', 'Note', `${base}/assets/old-sunset`],
        ['Create', 'Note', `${base}/assets/new-sunset`],
        ['Create', 'Image', `${base}/assets/old-sunset`],
      ]);
      expect(items[2], 'the old Create, unchanged').to.deep.equal(old);
      expect(items[1].id).to.equal(created.activity.id);
      for (const item of items) {
        expect(await verifyJsonLd(item, loaders), `${item.type} ${item.object.type}`).to.equal(true);
        // Each item is the document its own URL serves.
        const alone = await apGet(new URL(item.id).pathname);
        expect(JSON.stringify(item)).to.equal(alone.text);
      }
      // The old one was not re-signed or reshaped by the edit of its asset.
      expect((await apGet('/activities/0')).text).to.equal(JSON.stringify(old));
      // The asset itself is shown as it now is: a Note.
      expect(JSON.parse((await apGet('/assets/old-sunset')).text)).to.deep.include({ type: 'Note' });
    });
  });
}
