import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  BASE,
  BROWSER_ACCEPT,
  createAsset,
  expectHtml,
  expectProblem,
  expectVaryAccept,
  getAs,
  keysOf,
  localPath,
  startServer,
  STORES,
  walkNext,
  walkPrev,
  type Api,
} from './support.js';

const JSON_ACCEPT = { headers: { accept: 'application/json' } };
const names = (page: { items: { name: string }[] }): string[] => page.items.map((a) => a.name);
const COUNT = 45;
const itemName = (i: number) => `item-${String(i).padStart(2, '0')}`;

for (const store of STORES) {
  describe(`GET /registry (${store})`, () => {
    describe(`with ${COUNT} assets of two owners`, () => {
      let server: TestServer;
      let api: Api;
      /** Every asset name, newest first. */
      let newestFirst: string[];

      before(async () => {
        server = await startServer(store);
        api = client(server.url);
        const tokens = {
          alice: await registerUser(server.url, 'alice'),
          bob: await registerUser(server.url, 'bob'),
        };
        for (let i = 0; i < COUNT; i++) {
          await createAsset(api, i % 2 === 0 ? tokens.alice : tokens.bob, itemName(i));
        }
        newestFirst = Array.from({ length: COUNT }, (_, i) => itemName(COUNT - 1 - i));
      });
      after(() => server?.close());

      it('lists live assets newest first in the shared list shape, 20 by default', async () => {
        const response = await api.get('/registry', JSON_ACCEPT);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        expect(keysOf(response.json)).to.deep.equal(['items', 'next', 'prev', 'total']);
        expect(response.json.total).to.equal(COUNT);
        expect(names(response.json)).to.deep.equal(newestFirst.slice(0, 20));
        expect(response.json.prev).to.equal(null);
        expect(response.json.next).to.be.a('string');
        const first = response.json.items[0];
        expect(keysOf(first)).to.deep.equal(
          [
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
          ].sort(),
        );
        expect(first).to.include({ name: itemName(COUNT - 1), id: `${BASE}/assets/${itemName(COUNT - 1)}` });
      });

      it('gives absolute next/prev URLs under PUBLIC_URL that keep the limit and carry a cursor', async () => {
        const first = (await api.get('/registry?limit=10', JSON_ACCEPT)).json;
        expect(first.next).to.match(/^http:\/\/l2\.test\/registry\?/);
        const next = new URL(first.next);
        expect(next.searchParams.get('limit')).to.equal('10');
        expect(next.searchParams.has('before') || next.searchParams.has('after')).to.equal(true);
        const second = (await api.get(localPath(first.next), JSON_ACCEPT)).json;
        expect(second.prev).to.match(/^http:\/\/l2\.test\/registry\?/);
        expect(new URL(second.prev).searchParams.get('limit')).to.equal('10');
      });

      it(`walking next with limit=10 sees every live asset exactly once, in order, then next is null`, async () => {
        const pages = await walkNext(api, '/registry?limit=10');
        expect(pages.map((p) => p.items.length)).to.deep.equal([10, 10, 10, 10, 5]);
        expect(pages.flatMap(names)).to.deep.equal(newestFirst);
        expect(pages[0].prev).to.equal(null);
        expect(pages.at(-1).next).to.equal(null);
        for (const page of pages) expect(page.total).to.equal(COUNT);
      });

      it('walking prev back from the last page returns the same pages, and prev is null on the first', async () => {
        const forward = await walkNext(api, '/registry?limit=10');
        const backward = await walkPrev(api, forward.at(-1));
        expect(backward.map(names)).to.deep.equal(forward.map(names).reverse());
        expect(backward.at(-1).prev).to.equal(null);
      });

      it('a page of exactly the remaining items has next null (45 items, limit 15: three pages)', async () => {
        const pages = await walkNext(api, '/registry?limit=15');
        expect(pages.map((p) => p.items.length)).to.deep.equal([15, 15, 15]);
        expect(pages.at(-1).next).to.equal(null);
      });

      it('limit=100 returns everything on one page with next and prev null', async () => {
        const page = (await api.get('/registry?limit=100', JSON_ACCEPT)).json;
        expect(names(page)).to.deep.equal(newestFirst);
        expect(page.next).to.equal(null);
        expect(page.prev).to.equal(null);
      });

      it('limit=1 pages one asset at a time', async () => {
        const page = (await api.get('/registry?limit=1', JSON_ACCEPT)).json;
        expect(names(page)).to.deep.equal([newestFirst[0]]);
        const second = (await api.get(localPath(page.next), JSON_ACCEPT)).json;
        expect(names(second)).to.deep.equal([newestFirst[1]]);
      });

      for (const limit of ['0', '101', 'abc', '-1', '1.5']) {
        it(`answers 400 invalid_request to limit=${limit}`, async () => {
          expectProblem(await api.get(`/registry?limit=${limit}`, JSON_ACCEPT), 400, 'invalid_request');
        });
      }

      it('answers 400 to a malformed cursor, never a 500', async () => {
        for (const query of ['before=abc', 'after=abc', 'before=-5', 'before=1.5']) {
          expectProblem(await api.get(`/registry?${query}`, JSON_ACCEPT), 400, 'invalid_request');
        }
      });

      it('filters by ?owner=, in total and in every page, keeping the filter in the links', async () => {
        const aliceNames = newestFirst.filter((n) => Number(n.slice(5)) % 2 === 0);
        const pages = await walkNext(api, '/registry?owner=alice&limit=10');
        expect(pages.flatMap(names)).to.deep.equal(aliceNames);
        for (const page of pages) {
          expect(page.total).to.equal(aliceNames.length);
          for (const asset of page.items) expect(asset.owner).to.equal('alice');
          if (page.next) expect(new URL(page.next).searchParams.get('owner')).to.equal('alice');
        }
      });

      it('matches ?owner= case-insensitively, like usernames', async () => {
        const lower = (await api.get('/registry?owner=alice', JSON_ACCEPT)).json;
        const upper = (await api.get('/registry?owner=ALICE', JSON_ACCEPT)).json;
        expect(names(upper)).to.deep.equal(names(lower));
        expect(upper.total).to.equal(lower.total);
      });

      it('answers an empty list for an owner with no assets', async () => {
        const page = (await api.get('/registry?owner=nobody', JSON_ACCEPT)).json;
        expect(page).to.deep.equal({ items: [], total: 0, next: null, prev: null });
      });

      it('answers the HTML registry page by default and to a browser, with Vary: Accept', async () => {
        for (const response of [await api.get('/registry'), await getAs(api, '/registry', BROWSER_ACCEPT)]) {
          const html = expectHtml(response);
          expectVaryAccept(response);
          expect(html).to.include(newestFirst[0]);
        }
      });

      it('answers JSON with Vary: Accept', async () => {
        expectVaryAccept(await api.get('/registry', JSON_ACCEPT));
      });

      it('answers 406 to an ActivityPub Accept: the registry has no AP form', async () => {
        for (const accept of [AP_ACCEPT, 'application/ld+json', 'image/png']) {
          const response = await getAs(api, '/registry', accept);
          expectProblem(response, 406, 'not_acceptable');
          expectVaryAccept(response);
        }
      });
    });

    describe('name prefix search and deletions', () => {
      let server: TestServer;
      let api: Api;
      let alice: string;
      let bob: string;

      beforeEach(async () => {
        server = await startServer(store);
        api = client(server.url);
        alice = await registerUser(server.url, 'alice');
        bob = await registerUser(server.url, 'bob');
      });
      afterEach(() => server?.close());

      it('?q= is a case-sensitive name prefix, with a matching total', async () => {
        for (const name of ['Sun', 'sunset', 'moon', 'sunrise', 'SUNDAY', 'asun']) {
          await createAsset(api, alice, name);
        }
        const lower = (await api.get('/registry?q=sun', JSON_ACCEPT)).json;
        expect(names(lower)).to.deep.equal(['sunrise', 'sunset']);
        expect(lower.total).to.equal(2);
        const upper = (await api.get('/registry?q=Sun', JSON_ACCEPT)).json;
        expect(names(upper)).to.deep.equal(['Sun']);
        expect(upper.total).to.equal(1);
        const exact = (await api.get('/registry?q=sunset', JSON_ACCEPT)).json;
        expect(names(exact)).to.deep.equal(['sunset']);
        const none = (await api.get('/registry?q=x', JSON_ACCEPT)).json;
        expect(none).to.deep.equal({ items: [], total: 0, next: null, prev: null });
      });

      it('?q= treats "." "_" and "-" literally (no wildcard)', async () => {
        for (const name of ['a.b', 'axb', 'a_c', 'azc', 'a-d']) await createAsset(api, alice, name);
        expect(names((await api.get('/registry?q=a.', JSON_ACCEPT)).json)).to.deep.equal(['a.b']);
        expect(names((await api.get('/registry?q=a_', JSON_ACCEPT)).json)).to.deep.equal(['a_c']);
        expect(names((await api.get('/registry?q=a-', JSON_ACCEPT)).json)).to.deep.equal(['a-d']);
      });

      it('combines ?q= and ?owner=, keeping both in the paging links', async () => {
        for (let i = 0; i < 6; i++) {
          await createAsset(api, i % 2 ? bob : alice, `sun-${i}`);
          await createAsset(api, alice, `moon-${i}`);
        }
        const pages = await walkNext(api, '/registry?q=sun&owner=alice&limit=2');
        expect(pages.flatMap(names)).to.deep.equal(['sun-4', 'sun-2', 'sun-0']);
        expect(pages[0].total).to.equal(3);
        const next = new URL(pages[0].next);
        expect(next.searchParams.get('q')).to.equal('sun');
        expect(next.searchParams.get('owner')).to.equal('alice');
      });

      it('never lists deleted assets: not in pages, walks, totals, filters or searches', async () => {
        for (let i = 0; i < 12; i++) await createAsset(api, i % 3 ? alice : bob, itemName(i));
        const deleted = [itemName(0), itemName(5), itemName(6), itemName(11)];
        for (const name of deleted) {
          const owner = Number(name.slice(5)) % 3 ? alice : bob;
          expect((await api.send('DELETE', `/assets/${name}`, undefined, { token: owner })).status).to.equal(
            200,
          );
        }
        const live = Array.from({ length: 12 }, (_, i) => itemName(11 - i)).filter(
          (n) => !deleted.includes(n),
        );
        const pages = await walkNext(api, '/registry?limit=3');
        expect(pages.flatMap(names)).to.deep.equal(live);
        for (const page of pages) expect(page.total).to.equal(live.length);
        expect(pages.map((p) => p.items.length)).to.deep.equal([3, 3, 2]);
        const back = await walkPrev(api, pages.at(-1));
        expect(back.map(names).reverse().flat()).to.deep.equal(live);
        const bobs = (await api.get('/registry?owner=bob', JSON_ACCEPT)).json;
        expect(names(bobs)).to.deep.equal([itemName(9), itemName(3)]);
        expect(bobs.total).to.equal(2);
        const search = (await api.get('/registry?q=item-1', JSON_ACCEPT)).json;
        expect(names(search)).to.deep.equal([itemName(10)]);
        expect(search.total).to.equal(1);
      });
    });
  });
}
