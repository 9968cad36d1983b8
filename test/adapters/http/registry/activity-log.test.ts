import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { verifyLdSignature } from '../../../support/independent-ld-verifier.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  assetBody,
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
  registerUsers,
  startServer,
  STORES,
  walkNext,
  walkPrev,
  type Api,
} from './support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };
const ACTIVITY_KEYS = ['actor', 'id', 'idx', 'object', 'published', 'type'];
const idxs = (page: { items: { idx: number }[] }): number[] => page.items.map((a) => a.idx);

interface Expected {
  type: 'Create' | 'Update' | 'Delete';
  actor: string;
  object: string;
}

for (const store of STORES) {
  describe(`activity log (${store})`, () => {
    let server: TestServer;
    let api: Api;

    afterEach(() => server?.close());

    describe('after a mix of creates, updates, deletes and refused requests by two users', () => {
      let tokens: Record<string, string>;
      /** What the log should hold, by idx. */
      let expected: Expected[];

      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        tokens = await registerUsers(server.url, 'alice', 'bob');
        const { alice, bob } = tokens as { alice: string; bob: string };
        expected = [];
        const ok = async (token: string, method: string, path: string, body: unknown, e: Expected) => {
          const response = await api.send(method, path, body, { token });
          expect(response.status, `${method} ${path}: ${response.text}`).to.be.oneOf([200, 201]);
          expected.push(e);
        };
        const refused = async (token: string | undefined, method: string, path: string, body: unknown) => {
          const response = await api.send(method, path, body, token ? { token } : {});
          expect(response.status, `${method} ${path} is refused`).to.be.within(400, 499);
        };

        await ok(alice, 'POST', '/assets', assetBody('sunset'), {
          type: 'Create',
          actor: 'alice',
          object: 'sunset',
        });
        await ok(bob, 'POST', '/assets', assetBody('sea'), { type: 'Create', actor: 'bob', object: 'sea' });
        await refused(bob, 'POST', '/assets', assetBody('sunset')); // 409
        await ok(
          alice,
          'PATCH',
          '/assets/sunset',
          { description: 'v2' },
          {
            type: 'Update',
            actor: 'alice',
            object: 'sunset',
          },
        );
        await refused(bob, 'PATCH', '/assets/sunset', { description: 'mine' }); // 403
        await refused(alice, 'POST', '/assets', assetBody('bad', { url: 'ftp://x' })); // 400
        await ok(bob, 'DELETE', '/assets/sea', undefined, { type: 'Delete', actor: 'bob', object: 'sea' });
        await refused(bob, 'DELETE', '/assets/sea', undefined); // 410
        await refused(undefined, 'POST', '/assets', assetBody('anon')); // 401
        await ok(alice, 'POST', '/assets', assetBody('moon'), {
          type: 'Create',
          actor: 'alice',
          object: 'moon',
        });
        await ok(bob, 'POST', '/assets', assetBody('sky'), { type: 'Create', actor: 'bob', object: 'sky' });
        await refused(alice, 'PATCH', '/assets/sea', { description: 'x' }); // 410 (and not hers)
        await ok(alice, 'DELETE', '/assets/sunset', undefined, {
          type: 'Delete',
          actor: 'alice',
          object: 'sunset',
        });
        await ok(
          bob,
          'PATCH',
          '/assets/sky',
          { tags: ['blue'] },
          { type: 'Update', actor: 'bob', object: 'sky' },
        );
      });

      it('numbers the activities 0..N-1 without gaps; refused requests log nothing', async () => {
        const list = (await api.get('/activities?limit=100', JSON_ACCEPT)).json;
        expect(list.total).to.equal(expected.length);
        expect(idxs(list)).to.deep.equal(expected.map((_, i) => expected.length - 1 - i));
      });

      it('GET /activities lists them newest first, each in the JSON form', async () => {
        const response = await api.get('/activities?limit=100', JSON_ACCEPT);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expectVaryAccept(response);
        expect(keysOf(response.json)).to.deep.equal(['items', 'next', 'prev', 'total']);
        const items = response.json.items.slice().reverse();
        items.forEach((item: Record<string, unknown>, idx: number) => {
          expect(keysOf(item)).to.deep.equal(ACTIVITY_KEYS);
          expect(item).to.include({ idx, id: `${BASE}/activities/${idx}`, ...expected[idx] });
        });
        const times = items.map((item: { published: string }) => isoMillis(item.published));
        expect(times).to.deep.equal([...times].sort((a, b) => a - b));
      });

      it('GET /activities/{idx} answers the same JSON form as the list', async () => {
        const list = (await api.get('/activities?limit=100', JSON_ACCEPT)).json;
        for (const item of list.items) {
          const response = await api.get(`/activities/${item.idx}`, JSON_ACCEPT);
          expect(response.status).to.equal(200);
          expectVaryAccept(response);
          expect(response.json).to.deep.equal(item);
        }
      });

      it('pages /activities with cursors: walking next then prev sees every activity once', async () => {
        const pages = await walkNext(api, '/activities?limit=3');
        expect(pages.map((p) => p.items.length)).to.deep.equal([3, 3, 2]);
        expect(pages.flatMap(idxs)).to.deep.equal(expected.map((_, i) => expected.length - 1 - i));
        expect(pages[0].prev).to.equal(null);
        expect(pages.at(-1).next).to.equal(null);
        expect(pages[0].next).to.match(/^http:\/\/l2\.test\/activities\?/);
        const back = await walkPrev(api, pages.at(-1));
        expect(back.map(idxs).reverse()).to.deep.equal(pages.map(idxs));
      });

      for (const limit of ['0', '101', 'abc']) {
        it(`GET /activities?limit=${limit} answers 400`, async () => {
          expectProblem(await api.get(`/activities?limit=${limit}`, JSON_ACCEPT), 400, 'invalid_request');
        });
      }

      it('GET /activities answers HTML by default and 406 to an ActivityPub Accept', async () => {
        const html = expectHtml(await api.get('/activities'));
        expect(html).to.include('/activities/0');
        expectProblem(await getAs(api, '/activities', AP_ACCEPT), 406, 'not_acceptable');
      });

      it('GET /activities/{idx} answers the signed ActivityStreams document to an AP Accept', async () => {
        for (const accept of [AP_ACCEPT, LD_ACCEPT]) {
          const response = await getAs(api, '/activities/0', accept);
          const doc = expectAp(response);
          expectVaryAccept(response);
          expect(doc.id).to.equal(`${BASE}/activities/0`);
          expect(doc.type).to.equal('Create');
          expect(doc.actor).to.equal(`${BASE}/users/alice`);
          expect(doc.object.id).to.equal(`${BASE}/assets/sunset`);
          expect(doc.signature).to.include({
            type: 'RsaSignature2017',
            creator: `${BASE}/users/alice#main-key`,
          });
        }
      });

      it('GET /activities/{idx} answers an HTML page by default and to a browser', async () => {
        for (const response of [
          await api.get('/activities/3'),
          await getAs(api, '/activities/3', BROWSER_ACCEPT),
        ]) {
          const html = expectHtml(response);
          expectVaryAccept(response);
          expect(html).to.include('Delete');
          expect(html).to.include('sea');
        }
      });

      it('GET /activities/{idx} answers 406 to image/png', async () => {
        expectProblem(await getAs(api, '/activities/0', 'image/png'), 406, 'not_acceptable');
      });

      for (const idx of ['abc', '-1', '1.5', '1e2', '0x1', ' 1']) {
        it(`GET /activities/${idx} answers 400 invalid_request (not an integer)`, async () => {
          expectProblem(
            await api.get(`/activities/${encodeURIComponent(idx)}`, JSON_ACCEPT),
            400,
            'invalid_request',
          );
        });
      }

      it('GET /activities/{idx} answers 404 not_found for an absent idx', async () => {
        expectProblem(await api.get(`/activities/${expected.length}`, JSON_ACCEPT), 404, 'not_found');
        expectProblem(await api.get('/activities/1000000', JSON_ACCEPT), 404, 'not_found');
        expect((await getAs(api, `/activities/${expected.length}`, AP_ACCEPT)).status).to.equal(404);
      });

      it('GET /activities/{idx} answers 404 (not 400) for an integer idx too large to exist', async () => {
        expectProblem(await api.get('/activities/99999999999999999999', JSON_ACCEPT), 404, 'not_found');
      });

      it('GET /activity/{idx} answers 301 to /activities/{idx}, keeping the query string', async () => {
        for (const [from, to] of [
          ['/activity/3', '/activities/3'],
          ['/activity/3?x=1', '/activities/3?x=1'],
          ['/activity/0?a=1&b=two', '/activities/0?a=1&b=two'],
        ] as const) {
          const response = await api.get(from);
          expect(response.status, from).to.equal(301);
          const location = new URL(response.headers.get('location') ?? '', BASE);
          expect(location.pathname + location.search, from).to.equal(to);
        }
      });

      it('the 301 target serves the activity', async () => {
        const response = await api.get('/activity/2');
        const target = new URL(response.headers.get('location') ?? '', BASE);
        const followed = await api.get(target.pathname + target.search, JSON_ACCEPT);
        expect(followed.json).to.include({ idx: 2, type: 'Update' });
      });
    });

    describe('30 concurrent registrations by 3 users', () => {
      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
      });

      it('log exactly idx 0..29, each activity signed by its own publisher', async () => {
        const tokens = await registerUsers(server.url, 'alice', 'bob', 'carol');
        const users = Object.keys(tokens);
        const jobs = Array.from({ length: 30 }, (_, i) => {
          const user = users[i % 3]!;
          return api.post('/assets', assetBody(`c-${user}-${i}`), { token: tokens[user] });
        });
        const responses = await Promise.all(jobs);
        for (const response of responses) expect(response.status, response.text).to.equal(201);
        const created = responses.map((r) => r.json);
        expect(created.map((a) => a.activity.idx).sort((a, b) => a - b)).to.deep.equal(
          Array.from({ length: 30 }, (_, i) => i),
        );

        const keys: Record<string, string> = {};
        for (const user of users) {
          keys[user] = expectAp(await getAs(api, `/users/${user}`, AP_ACCEPT)).publicKey.publicKeyPem;
        }
        expect(new Set(Object.values(keys)).size, 'three users, three keys').to.equal(3);

        const list = (await api.get('/activities?limit=100', JSON_ACCEPT)).json;
        expect(list.total).to.equal(30);
        expect(idxs(list)).to.deep.equal(Array.from({ length: 30 }, (_, i) => 29 - i));

        for (const asset of created) {
          const doc = expectAp(await getAs(api, `/activities/${asset.activity.idx}`, AP_ACCEPT));
          expect(doc.id).to.equal(asset.activity.id);
          expect(doc.actor).to.equal(`${BASE}/users/${asset.owner}`);
          expect(doc.object.id).to.equal(asset.id);
          expect(await verifyLdSignature(doc, keys[asset.owner]!), `${asset.name} by its owner`).to.equal(
            true,
          );
          const other = users.find((u) => u !== asset.owner)!;
          expect(await verifyLdSignature(doc, keys[other]!), `${asset.name} not by ${other}`).to.equal(false);
        }
      });

      it('log no Update after the Delete of an asset when updates and deletes race, and no second Delete', async () => {
        const { alice } = (await registerUsers(server.url, 'alice')) as { alice: string };
        await createAsset(api, alice, 'contested');
        const responses = await Promise.all([
          ...Array.from({ length: 8 }, (_, i) =>
            api.send('PATCH', '/assets/contested', { description: `v${i}` }, { token: alice }),
          ),
          api.send('DELETE', '/assets/contested', undefined, { token: alice }),
          api.send('DELETE', '/assets/contested', undefined, { token: alice }),
          ...Array.from({ length: 4 }, (_, i) =>
            api.send('PATCH', '/assets/contested', { description: `w${i}` }, { token: alice }),
          ),
        ]);
        for (const response of responses) expect(response.status, response.text).to.be.oneOf([200, 410]);
        const succeeded = responses.filter((r) => r.status === 200).length;
        const log = (await api.get('/activities?limit=100', JSON_ACCEPT)).json.items.slice().reverse();
        expect(log.map((a: { idx: number }) => a.idx)).to.deep.equal(log.map((_: unknown, i: number) => i));
        expect(log).to.have.length(1 + succeeded);
        const types: string[] = log.map((a: { type: string }) => a.type);
        expect(types.filter((t) => t === 'Delete')).to.have.length(1);
        expect(types.at(-1)).to.equal('Delete');
        expectProblem(await api.get('/assets/contested', JSON_ACCEPT), 410, 'gone');
      });

      it('keep the idx gap-free when concurrent registrations race for the same name', async () => {
        const tokens = await registerUsers(server.url, 'alice', 'bob', 'carol');
        const responses = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            api.post('/assets', assetBody(`race-${i % 4}`), {
              token: tokens[['alice', 'bob', 'carol'][i % 3]!],
            }),
          ),
        );
        const statuses = responses.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 201)).to.have.length(4);
        expect(statuses.filter((s) => s === 409)).to.have.length(8);
        const list = (await api.get('/activities', JSON_ACCEPT)).json;
        expect(idxs(list)).to.deep.equal([3, 2, 1, 0]);
      });
    });

    if (store === 'sqlite') {
      describe('across a restart on the same SQLite file', () => {
        let dir: string;
        beforeEach(() => {
          dir = mkdtempSync(join(tmpdir(), 'l2-activity-restart-'));
        });
        afterEach(async () => {
          await server?.close();
          rmSync(dir, { recursive: true, force: true });
        });

        it('continues the numbering where it stopped, and serves the old activities unchanged', async () => {
          server = await startServer(store, { dir });
          api = client(server.url);
          const alice = await registerUser(server.url, 'alice');
          await createAsset(api, alice, 'one');
          await createAsset(api, alice, 'two');
          const before = expectAp(await getAs(api, '/activities/1', AP_ACCEPT));
          await server.close();

          server = await startServer(store, { dir });
          api = client(server.url);
          const login = await api.post('/auth/login', {
            username: 'alice',
            password: 'correct horse battery',
          });
          expect(login.status, login.text).to.equal(200);
          const three = await createAsset(api, login.json.access_token, 'three');
          expect(three.activity).to.deep.equal({ idx: 2, id: `${BASE}/activities/2` });
          expect(expectAp(await getAs(api, '/activities/1', AP_ACCEPT))).to.deep.equal(before);
          expect(idxs((await api.get('/activities', JSON_ACCEPT)).json)).to.deep.equal([2, 1, 0]);
        });
      });
    }
  });
}
