import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
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
  LD_ACCEPT,
  startServer,
  STORES,
  type Api,
} from './support.js';

for (const store of STORES) {
  describe(`GET /assets/{name} (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alice: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let sunset: any;

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      sunset = await createAsset(api, alice, 'sunset', {
        media_type: 'image/png',
        url: 'https://cdn.example/sunset.png',
        description: 'Red sky',
        tags: ['art', 'sky'],
      });
    });
    afterEach(() => server?.close());

    it('answers the asset itself to application/json (the POST body without the activity)', async () => {
      const response = await getAs(api, '/assets/sunset', 'application/json');
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      const { activity: _activity, ...asset } = sunset;
      expect(response.json).to.deep.equal(asset);
      expectVaryAccept(response);
    });

    for (const accept of [
      AP_ACCEPT,
      LD_ACCEPT,
      'application/ld+json',
      'application/activity+json, application/ld+json',
      'text/html;q=0.5, application/activity+json',
    ]) {
      it(`answers the ActivityStreams object with the AP content type to Accept: ${accept}`, async () => {
        const response = await getAs(api, '/assets/sunset', accept);
        const object = expectAp(response);
        expectVaryAccept(response);
        expect(object['@context']).to.satisfy((c: unknown) => c === AS || (Array.isArray(c) && c[0] === AS));
        expect(object).to.deep.include({
          id: `${BASE}/assets/sunset`,
          type: 'Image',
          name: 'sunset',
          attributedTo: `${BASE}/users/alice`,
          mediaType: 'image/png',
          url: 'https://cdn.example/sunset.png',
          content: 'Red sky',
          published: sunset.created_at,
        });
        expect(object.tag).to.deep.equal([
          { type: 'Hashtag', name: '#art' },
          { type: 'Hashtag', name: '#sky' },
        ]);
      });
    }

    it('serves the AP object with an id equal to the URL it is served from', async () => {
      const object = expectAp(await getAs(api, '/assets/sunset', AP_ACCEPT));
      expect(object.id).to.equal(`${BASE}/assets/sunset`);
      expect(object.id).to.equal(sunset.id);
    });

    for (const [mediaType, type] of [
      ['image/jpeg', 'Image'],
      ['image/svg+xml', 'Image'],
      ['video/mp4', 'Video'],
      ['audio/ogg', 'Audio'],
      ['application/pdf', 'Document'],
      ['text/plain', 'Document'],
      ['model/gltf+json', 'Document'],
    ] as const) {
      it(`types a ${mediaType} asset as ${type}`, async () => {
        const name = `typed-${mediaType.replace(/[^a-z0-9]/g, '-')}`;
        await createAsset(api, alice, name, { media_type: mediaType });
        const object = expectAp(await getAs(api, `/assets/${name}`, AP_ACCEPT));
        expect(object.type).to.equal(type);
        expect(object.mediaType).to.equal(mediaType);
      });
    }

    for (const [label, accept] of [
      ['no Accept header', undefined],
      ['Accept: */*', '*/*'],
      ['a browser Accept', BROWSER_ACCEPT],
      ['Accept: text/html', 'text/html'],
      ['a tie between text/html and application/json', 'application/json, text/html'],
    ] as const) {
      it(`answers the HTML page to ${label}`, async () => {
        const response = await api.get('/assets/sunset', accept ? { headers: { accept } } : {});
        const html = expectHtml(response);
        expectVaryAccept(response);
        expect(html).to.include('sunset');
        expect(html).to.include('Red sky');
        expect(html).to.include(sunset.content_hash);
        expect(html).to.include('https://cdn.example/sunset.png');
      });
    }

    it('honours q-values when choosing the representation', async () => {
      for (const [accept, expected] of [
        ['text/html;q=0.1, application/json', /^application\/json/],
        ['application/json;q=0.5, text/html', /^text\/html/],
        ['application/json;q=0.9, application/activity+json', /^application\/activity\+json/],
        ['application/activity+json;q=0.2, application/json;q=0.3', /^application\/json/],
        ['image/png, application/json;q=0.1', /^application\/json/],
        ['text/html;q=0, application/json;q=0.01', /^application\/json/],
      ] as const) {
        const response = await getAs(api, '/assets/sunset', accept);
        expect(response.status, accept).to.equal(200);
        expect(response.headers.get('content-type'), accept).to.match(expected);
      }
    });

    it('answers 406 not_acceptable to Accept: image/png, with Vary: Accept', async () => {
      const response = await getAs(api, '/assets/sunset', 'image/png');
      expectProblem(response, 406, 'not_acceptable');
      expectVaryAccept(response);
    });

    it('answers 404 not_found for an unknown name, whatever the Accept', async () => {
      expectProblem(await getAs(api, '/assets/nothing', 'application/json'), 404, 'not_found');
      expect((await getAs(api, '/assets/nothing', AP_ACCEPT)).status).to.equal(404);
      expectHtml(await getAs(api, '/assets/nothing', BROWSER_ACCEPT), 404);
    });

    it('varies the 404 of a negotiated route by Accept too (its HTML and JSON bodies differ)', async () => {
      for (const path of ['/assets/nothing', '/users/nobody', '/activities/999']) {
        const json = await getAs(api, path, 'application/json');
        const html = await getAs(api, path, BROWSER_ACCEPT);
        expect(json.status, path).to.equal(404);
        expect(html.status, path).to.equal(404);
        expect(json.headers.get('content-type'), path).to.not.equal(html.headers.get('content-type'));
        expectVaryAccept(json);
        expectVaryAccept(html);
      }
    });

    it('answers 404 for a different case of the name (names are case-sensitive)', async () => {
      expectProblem(await getAs(api, '/assets/SUNSET', 'application/json'), 404, 'not_found');
    });

    describe('after DELETE', () => {
      beforeEach(async () => {
        const response = await api.send('DELETE', '/assets/sunset', undefined, { token: alice });
        expect(response.status, response.text).to.equal(200);
      });

      it('answers 410 problem gone in JSON', async () => {
        const response = await getAs(api, '/assets/sunset', 'application/json');
        expectProblem(response, 410, 'gone');
      });

      it('answers 410 with a Tombstone in the AP form', async () => {
        for (const accept of [AP_ACCEPT, LD_ACCEPT]) {
          const response = await getAs(api, '/assets/sunset', accept);
          const tombstone = expectAp(response, 410);
          expect(tombstone.type, accept).to.equal('Tombstone');
          expect(tombstone.id, accept).to.equal(`${BASE}/assets/sunset`);
          expect(tombstone['@context']).to.satisfy(
            (c: unknown) => c === AS || (Array.isArray(c) && c.includes(AS)),
          );
        }
      });

      it('the Tombstone served at the asset URL is the object of the signed Delete', async () => {
        const tombstone = expectAp(await getAs(api, '/assets/sunset', AP_ACCEPT), 410);
        const list = (await getAs(api, '/activities', 'application/json')).json;
        const del = expectAp(await getAs(api, `/activities/${list.items[0].idx}`, AP_ACCEPT));
        expect(del.type).to.equal('Delete');
        const { '@context': _context, ...object } = tombstone;
        expect(object).to.deep.equal(del.object);
      });

      it('answers a 410 HTML page to a browser and by default', async () => {
        expectHtml(await getAs(api, '/assets/sunset', BROWSER_ACCEPT), 410);
        expectHtml(await api.get('/assets/sunset'), 410);
      });

      it('no longer shows the description anywhere on the 410 page', async () => {
        const html = expectHtml(await getAs(api, '/assets/sunset', BROWSER_ACCEPT), 410);
        expect(html).to.not.include('Red sky');
      });
    });
  });
}
