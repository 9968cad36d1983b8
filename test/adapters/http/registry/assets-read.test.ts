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
  multibaseSha256,
  PUBLIC,
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
          type: 'Note',
          attributedTo: `${BASE}/users/alice`,
          to: [PUBLIC],
          cc: [`${BASE}/users/alice/followers`],
          url: `${BASE}/assets/sunset`,
          sensitive: false,
          content:
            '<p><strong>sunset</strong></p><p>Red sky</p><p>' +
            `<a href="${BASE}/tags/art" class="mention hashtag" rel="tag">#<span>art</span></a> ` +
            `<a href="${BASE}/tags/sky" class="mention hashtag" rel="tag">#<span>sky</span></a></p>`,
          published: sunset.created_at,
        });
        for (const absent of ['name', 'summary', 'mediaType', 'updated'])
          expect(object, absent).to.not.have.property(absent);
        expect(object.attachment).to.deep.equal([
          {
            type: 'Document',
            mediaType: 'image/png',
            url: 'https://cdn.example/sunset.png',
            name: 'Red sky',
            digestMultibase: multibaseSha256(sunset.content_hash),
          },
        ]);
        expect(object.tag).to.deep.equal([
          { type: 'Hashtag', href: `${BASE}/tags/art`, name: '#art' },
          { type: 'Hashtag', href: `${BASE}/tags/sky`, name: '#sky' },
        ]);
      });
    }

    it('serves the AP object with an id equal to the URL it is served from', async () => {
      const object = expectAp(await getAs(api, '/assets/sunset', AP_ACCEPT));
      expect(object.id).to.equal(`${BASE}/assets/sunset`);
      expect(object.id).to.equal(sunset.id);
    });

    for (const [mediaType, url, attached] of [
      ['image/jpeg', 'https://cdn.example/a.jpg', true],
      ['image/svg+xml', 'https://cdn.example/a.svg', true],
      ['video/mp4', 'https://cdn.example/a.mp4', true],
      ['audio/ogg', 'https://cdn.example/a.ogg', true],
      ['image/png', 'http://cdn.example/a.png', false],
      ['application/pdf', 'https://cdn.example/a.pdf', false],
      ['text/plain', 'https://cdn.example/a.txt', false],
      ['model/gltf+json', 'https://cdn.example/a.gltf', false],
    ] as const) {
      it(`makes a ${mediaType} asset at ${url.split(':')[0]} a Note ${attached ? 'with' : 'linking to'} the file`, async () => {
        const name = `typed-${mediaType.replace(/[^a-z0-9]/g, '-')}-${url.split(':')[0]}`;
        await createAsset(api, alice, name, { media_type: mediaType, url, alt_text: 'What it shows' });
        const object = expectAp(await getAs(api, `/assets/${name}`, AP_ACCEPT));
        expect(object.type).to.equal('Note');
        expect(object.url).to.equal(`${BASE}/assets/${name}`);
        if (attached) {
          expect(object.attachment).to.have.length(1);
          expect(object.attachment[0]).to.include({
            type: 'Document',
            mediaType,
            url,
            name: 'What it shows',
          });
          expect(object.content).to.not.include(url);
        } else {
          expect(object).to.not.have.property('attachment');
          expect(object.content).to.include(`<a href="${url}"`);
        }
      });
    }

    it('names the attachment by the alt text, else the description cut to 1,500 characters, else the asset name', async () => {
      const long = 'd'.repeat(1600);
      await createAsset(api, alice, 'by-description', { description: long });
      await createAsset(api, alice, 'by-name', { description: '' });
      const name = async (asset: string) =>
        expectAp(await getAs(api, `/assets/${asset}`, AP_ACCEPT)).attachment[0].name;
      expect(await name('by-description')).to.equal('d'.repeat(1500));
      expect(await name('by-name')).to.equal('by-name');
    });

    it('marks a sensitive asset sensitive, and carries updated once the asset changed', async () => {
      await createAsset(api, alice, 'nsfw', { sensitive: true });
      expect(expectAp(await getAs(api, '/assets/nsfw', AP_ACCEPT)).sensitive).to.equal(true);
      const patched = await api.send('PATCH', '/assets/nsfw', { sensitive: false }, { token: alice });
      expect(patched.status, patched.text).to.equal(200);
      const object = expectAp(await getAs(api, '/assets/nsfw', AP_ACCEPT));
      expect(object.sensitive).to.equal(false);
      expect(object.updated).to.equal(patched.json.updated_at);
    });

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
