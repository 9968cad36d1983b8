import { expect } from 'chai';
import { client, registerUser, type HttpResponse } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  assetBody,
  BASE,
  contentHash,
  createAsset,
  expectProblem,
  isoMillis,
  keysOf,
  startServer,
  STORES,
  type Api,
} from './support.js';

const ASSET_KEYS = [
  'name',
  'owner',
  'content_hash',
  'media_type',
  'url',
  'description',
  'alt_text',
  'sensitive',
  'tags',
  'created_at',
  'updated_at',
  'id',
].sort();

/** Asserts a 400 invalid_request whose `errors` name `path`. */
function expectFieldError(response: HttpResponse, path: string, label: string): void {
  expect(response.status, `${label}: ${response.text}`).to.equal(400);
  const body = expectProblem(response, 400, 'invalid_request');
  expect(body.errors, `${label}: errors[]`).to.be.an('array').that.is.not.empty;
  expect(
    body.errors.map((e: { path: string }) => e.path),
    label,
  ).to.include(path);
  for (const error of body.errors) expect(error.message, label).to.be.a('string').and.not.equal('');
}

for (const store of STORES) {
  describe(`POST /assets (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alice: string;

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
    });
    afterEach(() => server?.close());

    it('answers 201 with exactly the asset fields, the Create activity and a Location header', async () => {
      const before = Date.now();
      const hash = contentHash('sunset');
      const response = await api.post(
        '/assets',
        {
          name: 'sunset',
          content_hash: hash,
          media_type: 'image/png',
          url: 'https://cdn.example/sunset.png',
          description: 'Red sky',
          tags: ['art', 'sky'],
        },
        { token: alice },
      );
      expect(response.status, response.text).to.equal(201);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      const body = response.json;
      expect(keysOf(body)).to.deep.equal([...ASSET_KEYS, 'activity'].sort());
      expect(body).to.deep.include({
        name: 'sunset',
        owner: 'alice',
        content_hash: hash,
        media_type: 'image/png',
        url: 'https://cdn.example/sunset.png',
        description: 'Red sky',
        alt_text: null,
        sensitive: false,
        tags: ['art', 'sky'],
        id: `${BASE}/assets/sunset`,
      });
      const created = isoMillis(body.created_at);
      expect(created).to.be.within(before - 1000, Date.now() + 1000);
      expect(body.updated_at).to.equal(body.created_at);
      expect(keysOf(body.activity)).to.deep.equal(['id', 'idx']);
      expect(body.activity.idx).to.equal(0);
      expect(body.activity.id).to.equal(`${BASE}/activities/0`);
      const location = response.headers.get('location');
      expect(location).to.be.a('string');
      expect(new URL(location!, BASE).href).to.equal(`${BASE}/assets/sunset`);
    });

    it('stores an unpaired surrogate in a description or tag as U+FFFD, the same in the answer, the store and the signed activity', async () => {
      const created = await createAsset(api, alice, 'surrogate', {
        description: 'x\ud800y',
        tags: ['a\udc00'],
      });
      expect(created.description).to.equal('x\ufffdy');
      expect(created.tags).to.deep.equal(['a\ufffd']);
      const stored = (await api.get('/assets/surrogate', { headers: { accept: 'application/json' } })).json;
      expect(stored.description).to.equal('x\ufffdy');
      expect(stored.tags).to.deep.equal(['a\ufffd']);
      const activity = await api.get(`/activities/${created.activity.idx}`, {
        headers: { accept: 'application/activity+json' },
      });
      expect(JSON.parse(activity.text).object.content).to.include('<p>x\ufffdy</p>');
      expect(JSON.parse(activity.text).object.tag[0].name).to.equal('#a\ufffd');
    });

    it('numbers the activities of successive registrations 0, 1, 2', async () => {
      const idxs = [];
      for (const name of ['a1', 'a2', 'a3']) idxs.push((await createAsset(api, alice, name)).activity);
      expect(idxs).to.deep.equal([0, 1, 2].map((idx) => ({ idx, id: `${BASE}/activities/${idx}` })));
    });

    it('lower-cases an upper-case content_hash (and media type)', async () => {
      const hash = contentHash('upper');
      const body = await createAsset(api, alice, 'upper', {
        content_hash: `sha256:${hash.slice(7).toUpperCase()}`,
        media_type: 'Image/PNG',
      });
      expect(body.content_hash).to.equal(hash);
      expect(body.media_type).to.equal('image/png');
    });

    it('accepts an asset with only name, content_hash and media_type (url null, empty description, no tags)', async () => {
      const response = await api.post(
        '/assets',
        { name: 'bare', content_hash: contentHash('bare'), media_type: 'application/octet-stream' },
        { token: alice },
      );
      expect(response.status, response.text).to.equal(201);
      expect(response.json).to.deep.include({ url: null, description: '', tags: [] });
    });

    it('answers 401 unauthenticated without a token, and registers nothing', async () => {
      expectProblem(await api.post('/assets', assetBody('sunset')), 401, 'unauthenticated');
      expect((await api.get('/assets/sunset', { headers: { accept: 'application/json' } })).status).to.equal(
        404,
      );
    });

    it('answers 401 for an invalid bearer token', async () => {
      const response = await api.post('/assets', assetBody('sunset'), { token: 'not.a.jwt' });
      expect(response.status).to.equal(401);
      expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    });

    it('ignores or refuses an owner in the body: nobody registers an asset for someone else', async () => {
      await registerUser(server.url, 'bob');
      const response = await api.post('/assets', { ...assetBody('sunset'), owner: 'bob' }, { token: alice });
      expect(response.status, response.text).to.be.oneOf([201, 400]);
      const asset = await api.get('/assets/sunset', { headers: { accept: 'application/json' } });
      if (response.status === 201) expect(asset.json.owner).to.equal('alice');
      else expect(asset.status).to.equal(404);
    });

    it('answers 415 to a text/plain body, 400 to malformed JSON and 413 to a body over 64 KiB', async () => {
      const raw = (body: string, type: string) =>
        api.post('/assets', undefined, { token: alice, raw: body, headers: { 'content-type': type } });
      expectProblem(
        await raw(JSON.stringify(assetBody('sunset')), 'text/plain'),
        415,
        'unsupported_media_type',
      );
      expectProblem(await raw('{"name": "sunset",', 'application/json'), 400, 'invalid_request');
      const huge = JSON.stringify(assetBody('sunset', { description: 'x'.repeat(70 * 1024) }));
      expectProblem(await raw(huge, 'application/json'), 413, 'payload_too_large');
    });

    it('answers 409 asset_exists for a taken name, whoever asks, and keeps the first asset', async () => {
      await createAsset(api, alice, 'sunset', { description: 'first' });
      const bob = await registerUser(server.url, 'bob');
      expectProblem(await api.post('/assets', assetBody('sunset'), { token: alice }), 409, 'asset_exists');
      expectProblem(await api.post('/assets', assetBody('sunset'), { token: bob }), 409, 'asset_exists');
      const asset = await api.get('/assets/sunset', { headers: { accept: 'application/json' } });
      expect(asset.json).to.include({ owner: 'alice', description: 'first' });
    });

    it('answers 409 asset_exists for the name of a deleted asset: the name stays taken', async () => {
      await createAsset(api, alice, 'sunset');
      expect((await api.send('DELETE', '/assets/sunset', undefined, { token: alice })).status).to.equal(200);
      const bob = await registerUser(server.url, 'bob');
      expectProblem(await api.post('/assets', assetBody('sunset'), { token: alice }), 409, 'asset_exists');
      expectProblem(await api.post('/assets', assetBody('sunset'), { token: bob }), 409, 'asset_exists');
    });

    it('treats names case-sensitively: Sunset and sunset are two assets', async () => {
      const upper = await createAsset(api, alice, 'Sunset', { description: 'upper' });
      const lower = await createAsset(api, alice, 'sunset', { description: 'lower' });
      expect(upper.id).to.equal(`${BASE}/assets/Sunset`);
      expect(lower.id).to.equal(`${BASE}/assets/sunset`);
      const json = { headers: { accept: 'application/json' } };
      expect((await api.get('/assets/Sunset', json)).json.description).to.equal('upper');
      expect((await api.get('/assets/sunset', json)).json.description).to.equal('lower');
    });

    describe('field rules (400 invalid_request with errors[].path)', () => {
      it('accepts names of 1 and 128 characters using letters, digits, ".", "_" and "-"', async () => {
        await createAsset(api, alice, 'x');
        await createAsset(api, alice, 'a'.repeat(128));
        await createAsset(api, alice, 'A9._-z');
        await createAsset(api, alice, '0start');
      });

      for (const [label, name] of [
        ['129 characters', 'a'.repeat(129)],
        ['a leading "-"', '-sunset'],
        ['a leading "."', '.sunset'],
        ['a leading "_"', '_sunset'],
        ['a space', 'sun set'],
        ['a slash', 'sun/set'],
        ['a non-ASCII letter', 'sunsét'],
        ['the empty string', ''],
      ] as const) {
        it(`rejects a name with ${label}`, async () => {
          expectFieldError(await api.post('/assets', assetBody(name), { token: alice }), 'name', label);
        });
      }

      it('rejects a missing name, content_hash or media_type', async () => {
        for (const field of ['name', 'content_hash', 'media_type']) {
          const body = assetBody('sunset');
          delete body[field];
          expectFieldError(await api.post('/assets', body, { token: alice }), field, `missing ${field}`);
        }
      });

      for (const [label, hash] of [
        ['md5: prefix', `md5:${'a'.repeat(32)}`],
        ['no prefix', 'a'.repeat(64)],
        ['63 hex digits', `sha256:${'a'.repeat(63)}`],
        ['65 hex digits', `sha256:${'a'.repeat(65)}`],
        ['a non-hex digit', `sha256:${'g'.repeat(64)}`],
        ['sha512: prefix', `sha512:${'a'.repeat(64)}`],
      ] as const) {
        it(`rejects a content_hash with ${label}`, async () => {
          const response = await api.post('/assets', assetBody('sunset', { content_hash: hash }), {
            token: alice,
          });
          expectFieldError(response, 'content_hash', label);
        });
      }

      for (const mediaType of ['png', 'image/', '/png', 'image png', 'image/png/x', '']) {
        it(`rejects the malformed media_type ${JSON.stringify(mediaType)}`, async () => {
          const response = await api.post('/assets', assetBody('sunset', { media_type: mediaType }), {
            token: alice,
          });
          expectFieldError(response, 'media_type', mediaType);
        });
      }

      for (const url of [
        'javascript:alert(1)',
        'ftp://x',
        'ftp://files.example/sunset.png',
        'data:image/png;base64,AAAA',
        '/relative/sunset.png',
        'cdn.example/sunset.png',
        'file:///etc/passwd',
      ]) {
        it(`rejects the url ${url}`, async () => {
          const response = await api.post('/assets', assetBody('sunset', { url }), { token: alice });
          expectFieldError(response, 'url', url);
        });
      }

      it('accepts http and https URLs, and null', async () => {
        expect((await createAsset(api, alice, 'h1', { url: 'http://cdn.example/a.png' })).url).to.equal(
          'http://cdn.example/a.png',
        );
        expect((await createAsset(api, alice, 'h2', { url: 'https://cdn.example/a.png' })).url).to.equal(
          'https://cdn.example/a.png',
        );
        expect((await createAsset(api, alice, 'h3', { url: null })).url).to.equal(null);
      });

      it('accepts a url of 2,048 characters and rejects 2,049', async () => {
        const long = (n: number) => `https://cdn.example/${'u'.repeat(n - 'https://cdn.example/'.length)}`;
        expect((await createAsset(api, alice, 'u2048', { url: long(2048) })).url).to.have.length(2048);
        const response = await api.post('/assets', assetBody('u2049', { url: long(2049) }), { token: alice });
        expectFieldError(response, 'url', '2049 characters');
      });

      it('takes alt_text (at most 1,500 characters, blank is null) and sensitive (a boolean)', async () => {
        const made = await createAsset(api, alice, 'alt', { alt_text: '  A red sky  ', sensitive: true });
        expect(made).to.include({ alt_text: 'A red sky', sensitive: true });
        const read = await api.get('/assets/alt', { headers: { accept: 'application/json' } });
        expect(read.json).to.include({ alt_text: 'A red sky', sensitive: true });
        expect(await createAsset(api, alice, 'alt-blank', { alt_text: '   ' })).to.include({
          alt_text: null,
        });
        expect(
          (await createAsset(api, alice, 'alt-max', { alt_text: 'a'.repeat(1500) })).alt_text,
        ).to.have.length(1500);
        const tooLong = await api.post('/assets', assetBody('alt-long', { alt_text: 'a'.repeat(1501) }), {
          token: alice,
        });
        expectFieldError(tooLong, 'alt_text', '1501 characters');
        const notBoolean = await api.post('/assets', assetBody('s-str', { sensitive: 'yes' }), {
          token: alice,
        });
        expectFieldError(notBoolean, 'sensitive', 'a string');
      });

      it('accepts a description of 5000 characters and rejects 5001', async () => {
        const ok = await createAsset(api, alice, 'd5000', { description: 'd'.repeat(5000) });
        expect(ok.description).to.have.length(5000);
        const response = await api.post('/assets', assetBody('d5001', { description: 'd'.repeat(5001) }), {
          token: alice,
        });
        expectFieldError(response, 'description', '5001 characters');
      });

      it('counts description characters, not UTF-16 units: 5000 emoji are accepted', async () => {
        const body = await createAsset(api, alice, 'emoji', { description: '🌅'.repeat(5000) });
        expect([...body.description]).to.have.length(5000);
      });

      it('accepts 20 tags and rejects 21', async () => {
        const tags = Array.from({ length: 21 }, (_, i) => `t${i}`);
        expect((await createAsset(api, alice, 'twenty', { tags: tags.slice(0, 20) })).tags).to.deep.equal(
          tags.slice(0, 20),
        );
        const response = await api.post('/assets', assetBody('twentyone', { tags }), { token: alice });
        expectFieldError(response, 'tags', '21 tags');
      });

      it('accepts a 50-character tag and rejects a 51-character one', async () => {
        expect((await createAsset(api, alice, 'tag50', { tags: ['t'.repeat(50)] })).tags).to.deep.equal([
          't'.repeat(50),
        ]);
        const response = await api.post('/assets', assetBody('tag51', { tags: ['t'.repeat(51)] }), {
          token: alice,
        });
        expectFieldError(response, 'tags', '51 characters');
      });

      it('rejects tags containing spaces', async () => {
        const response = await api.post('/assets', assetBody('spaced', { tags: ['two words'] }), {
          token: alice,
        });
        expectFieldError(response, 'tags', 'a space');
      });

      it('registers nothing and logs no activity when a field is invalid', async () => {
        await api.post('/assets', assetBody('bad', { url: 'javascript:alert(1)' }), { token: alice });
        const json = { headers: { accept: 'application/json' } };
        expect((await api.get('/assets/bad', json)).status).to.equal(404);
        expect((await api.get('/activities', json)).json.total).to.equal(0);
      });
    });

    describe('tags', () => {
      it('takes tags as a JSON array', async () => {
        expect((await createAsset(api, alice, 'arr', { tags: ['art', 'sky', 'red'] })).tags).to.deep.equal([
          'art',
          'sky',
          'red',
        ]);
      });

      it('takes tags as one comma-separated form field', async () => {
        const response = await api.post(
          '/assets',
          {
            name: 'formtags',
            content_hash: contentHash('formtags'),
            media_type: 'image/png',
            tags: 'art, sky,red',
          },
          { token: alice, form: true, headers: { accept: 'application/json' } },
        );
        expect(response.status, response.text).to.equal(303);
        expect(response.headers.get('location')).to.equal('/assets/formtags');
        const asset = await api.get('/assets/formtags', { headers: { accept: 'application/json' } });
        expect(asset.status).to.equal(200);
        expect(asset.json.tags).to.deep.equal(['art', 'sky', 'red']);
      });
    });
  });
}
