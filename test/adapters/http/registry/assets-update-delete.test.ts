import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { verifyLdSignature } from '../../../support/independent-ld-verifier.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  BASE,
  createAsset,
  expectAp,
  expectProblem,
  getAs,
  isoMillis,
  keysOf,
  startServer,
  STORES,
  type Api,
} from './support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };

for (const store of STORES) {
  describe(`PATCH and DELETE /assets/{name} (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let bob: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let sunset: any;

    const actorKey = async (username: string): Promise<string> =>
      expectAp(await getAs(api, `/users/${username}`, AP_ACCEPT)).publicKey.publicKeyPem;

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      bob = await registerUser(server.url, 'bob');
      sunset = await createAsset(api, alice, 'sunset', {
        media_type: 'image/png',
        url: 'https://cdn.example/sunset.png',
        description: 'Red sky',
        tags: ['art'],
      });
    });
    afterEach(() => server?.close());

    describe('PATCH', () => {
      it('lets the owner change description, tags, url and media_type: 200 with the asset and its activity', async () => {
        const response = await api.send(
          'PATCH',
          '/assets/sunset',
          {
            description: 'Purple sky',
            tags: ['dusk', 'sky'],
            url: 'https://cdn.example/sunset.webm',
            media_type: 'video/webm',
          },
          { token: alice },
        );
        expect(response.status, response.text).to.equal(200);
        const body = response.json;
        expect(keysOf(body)).to.deep.equal(keysOf(sunset));
        expect(body).to.deep.include({
          name: 'sunset',
          owner: 'alice',
          content_hash: sunset.content_hash,
          description: 'Purple sky',
          tags: ['dusk', 'sky'],
          url: 'https://cdn.example/sunset.webm',
          media_type: 'video/webm',
          created_at: sunset.created_at,
          id: `${BASE}/assets/sunset`,
        });
        expect(isoMillis(body.updated_at)).to.be.above(isoMillis(sunset.updated_at));
        expect(body.activity).to.deep.equal({ idx: 1, id: `${BASE}/activities/1` });
        const { activity: _a, ...asset } = body;
        expect((await api.get('/assets/sunset', JSON_ACCEPT)).json).to.deep.equal(asset);
      });

      it('publishes a signed Update carrying the new state of the asset', async () => {
        const body = (
          await api.send('PATCH', '/assets/sunset', { description: 'Purple sky' }, { token: alice })
        ).json;
        const update = expectAp(await getAs(api, `/activities/${body.activity.idx}`, AP_ACCEPT));
        expect(update.type).to.equal('Update');
        expect(update.actor).to.equal(`${BASE}/users/alice`);
        expect(update.object).to.deep.include({ id: `${BASE}/assets/sunset`, type: 'Note' });
        expect(update.object.content).to.include('<p>Purple sky</p>');
        expect(update.object.updated).to.equal(body.updated_at);
        expect(await verifyLdSignature(update, await actorKey('alice'))).to.equal(true);
        const json = (await api.get(`/activities/${body.activity.idx}`, JSON_ACCEPT)).json;
        expect(json).to.include({ type: 'Update', actor: 'alice', object: 'sunset' });
      });

      it('changes alt_text and sensitive, and clears alt_text with null', async () => {
        const set = await api.send(
          'PATCH',
          '/assets/sunset',
          { alt_text: 'A red sky', sensitive: true },
          { token: alice },
        );
        expect(set.status, set.text).to.equal(200);
        expect(set.json).to.include({ alt_text: 'A red sky', sensitive: true, description: 'Red sky' });
        const update = expectAp(await getAs(api, `/activities/${set.json.activity.idx}`, AP_ACCEPT));
        expect(update.object.sensitive).to.equal(true);
        expect(update.object.attachment[0].name).to.equal('A red sky');
        const cleared = await api.send('PATCH', '/assets/sunset', { alt_text: null }, { token: alice });
        expect(cleared.json).to.include({ alt_text: null, sensitive: true });
      });

      it('changes only the fields given', async () => {
        const body = (await api.send('PATCH', '/assets/sunset', { tags: ['new'] }, { token: alice })).json;
        expect(body).to.deep.include({
          tags: ['new'],
          description: 'Red sky',
          url: 'https://cdn.example/sunset.png',
          media_type: 'image/png',
        });
      });

      it('clears the url with null', async () => {
        const response = await api.send('PATCH', '/assets/sunset', { url: null }, { token: alice });
        expect(response.status, response.text).to.equal(200);
        expect(response.json.url).to.equal(null);
      });

      it('moves updated_at on each change and never created_at or content_hash', async () => {
        const first = (await api.send('PATCH', '/assets/sunset', { description: 'one' }, { token: alice }))
          .json;
        const second = (await api.send('PATCH', '/assets/sunset', { description: 'two' }, { token: alice }))
          .json;
        expect(isoMillis(first.updated_at)).to.be.above(isoMillis(sunset.updated_at));
        expect(isoMillis(second.updated_at)).to.be.above(isoMillis(first.updated_at));
        for (const body of [first, second]) {
          expect(body.created_at).to.equal(sunset.created_at);
          expect(body.content_hash).to.equal(sunset.content_hash);
        }
      });

      for (const [field, value] of [
        ['content_hash', `sha256:${'b'.repeat(64)}`],
        ['name', 'renamed'],
        ['owner', 'bob'],
      ] as const) {
        it(`answers 400 to a change of ${field} and changes nothing`, async () => {
          const response = await api.send(
            'PATCH',
            '/assets/sunset',
            { [field]: value, description: 'sneaky' },
            {
              token: alice,
            },
          );
          const problem = expectProblem(response, 400, 'invalid_request');
          expect(problem.errors.map((e: { path: string }) => e.path)).to.include(field);
          const { activity: _a, ...asset } = sunset;
          expect((await api.get('/assets/sunset', JSON_ACCEPT)).json).to.deep.equal(asset);
          expect((await api.get('/activities', JSON_ACCEPT)).json.total).to.equal(1);
        });
      }

      it('applies the registration field rules to the new values', async () => {
        for (const [field, value] of [
          ['url', 'javascript:alert(1)'],
          ['media_type', 'png'],
          ['description', 'x'.repeat(5001)],
          ['tags', Array.from({ length: 21 }, (_, i) => `t${i}`)],
        ] as const) {
          const response = await api.send('PATCH', '/assets/sunset', { [field]: value }, { token: alice });
          const problem = expectProblem(response, 400, 'invalid_request');
          expect(problem.errors.map((e: { path: string }) => e.path)).to.include(field);
        }
      });

      it('answers 403 forbidden to another user and changes nothing', async () => {
        const response = await api.send(
          'PATCH',
          '/assets/sunset',
          { description: 'mine now' },
          { token: bob },
        );
        expectProblem(response, 403, 'forbidden');
        expect((await api.get('/assets/sunset', JSON_ACCEPT)).json.description).to.equal('Red sky');
      });

      it('answers 401 unauthenticated without a token', async () => {
        expectProblem(
          await api.send('PATCH', '/assets/sunset', { description: 'anon' }),
          401,
          'unauthenticated',
        );
      });

      it('answers 404 not_found for an unknown asset', async () => {
        expectProblem(
          await api.send('PATCH', '/assets/nothing', { description: 'x' }, { token: alice }),
          404,
          'not_found',
        );
      });

      it('answers 410 gone for a deleted asset', async () => {
        await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
        expectProblem(
          await api.send('PATCH', '/assets/sunset', { description: 'back' }, { token: alice }),
          410,
          'gone',
        );
      });
    });

    describe('DELETE', () => {
      it('lets the owner delete: 200 with the Delete activity in its JSON form', async () => {
        const response = await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
        expect(response.status, response.text).to.equal(200);
        expect(keysOf(response.json)).to.deep.equal(['activity']);
        const activity = response.json.activity;
        expect(keysOf(activity)).to.deep.equal(['actor', 'id', 'idx', 'object', 'published', 'type']);
        expect(activity).to.include({
          idx: 1,
          type: 'Delete',
          actor: 'alice',
          object: 'sunset',
          id: `${BASE}/activities/1`,
        });
        isoMillis(activity.published);
        expect((await api.get('/activities/1', JSON_ACCEPT)).json).to.deep.equal(activity);
      });

      it('publishes a signed Delete carrying a Tombstone', async () => {
        await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
        const doc = expectAp(await getAs(api, '/activities/1', AP_ACCEPT));
        expect(doc.type).to.equal('Delete');
        expect(doc.object).to.include({ id: `${BASE}/assets/sunset`, type: 'Tombstone' });
        expect(await verifyLdSignature(doc, await actorKey('alice'))).to.equal(true);
      });

      it('answers 410 gone to a second DELETE and logs no second activity', async () => {
        await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
        expectProblem(await api.send('DELETE', '/assets/sunset', undefined, { token: alice }), 410, 'gone');
        expect((await api.get('/activities', JSON_ACCEPT)).json.total).to.equal(2);
      });

      it('answers 403 forbidden to another user and keeps the asset', async () => {
        expectProblem(
          await api.send('DELETE', '/assets/sunset', undefined, { token: bob }),
          403,
          'forbidden',
        );
        expect((await api.get('/assets/sunset', JSON_ACCEPT)).status).to.equal(200);
      });

      it('answers 401 without a token and 404 for an unknown asset', async () => {
        expectProblem(await api.send('DELETE', '/assets/sunset'), 401, 'unauthenticated');
        expectProblem(
          await api.send('DELETE', '/assets/nothing', undefined, { token: alice }),
          404,
          'not_found',
        );
      });

      it('removes the asset from /registry lists and totals, the owner filter and the home statistics', async () => {
        await createAsset(api, alice, 'moon');
        await createAsset(api, bob, 'sea');
        const stats = async () => (await api.get('/', JSON_ACCEPT)).json.stats;
        expect((await stats()).assets).to.equal(3);
        await api.send('DELETE', '/assets/sunset', undefined, { token: alice });

        const all = (await api.get('/registry', JSON_ACCEPT)).json;
        expect(all.total).to.equal(2);
        expect(all.items.map((a: { name: string }) => a.name)).to.deep.equal(['sea', 'moon']);
        const mine = (await api.get('/registry?owner=alice', JSON_ACCEPT)).json;
        expect(mine.total).to.equal(1);
        expect(mine.items.map((a: { name: string }) => a.name)).to.deep.equal(['moon']);
        const prefix = (await api.get('/registry?q=sun', JSON_ACCEPT)).json;
        expect(prefix).to.deep.include({ total: 0, items: [] });
        expect(await stats()).to.include({ assets: 2, activities: 4, users: 2 });
      });
    });
  });
}
