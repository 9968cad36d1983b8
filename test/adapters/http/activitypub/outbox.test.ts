import { expect } from 'chai';
import { aFollower, anAcceptJob, aUsername } from '../../../support/builders.js';
import { client, registerUser, type HttpResponse } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  AS,
  assetBody,
  BASE,
  BROWSER_ACCEPT,
  expectAp,
  expectProblem,
  expectVaryAccept,
  getAs,
  LD_ACCEPT,
  localPath,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const PER_USER = 25;
const PAGE = 7;
const OUTBOX = `${BASE}/users/alice/outbox`;

/** The page at `url` (absolute, as the service emitted it), checked as an OrderedCollectionPage of alice's outbox. */
async function fetchPage(api: Api, url: string, accept = AP_ACCEPT): Promise<Doc> {
  const response = await getAs(api, localPath(url), accept);
  const page = expectAp(response);
  expectVaryAccept(response);
  expect(page.type, url).to.equal('OrderedCollectionPage');
  expect(page.id, url).to.equal(url);
  expect(page.partOf, url).to.equal(OUTBOX);
  expect(page.orderedItems, url).to.be.an('array');
  return page;
}

/** `next`/`prev` of a page: a URL, or absent/null at the end. */
const link = (page: Doc, rel: 'next' | 'prev'): string | null => page[rel] ?? null;

const withLimit = (url: string, limit: number) => `${url}${url.includes('?') ? '&' : '?'}limit=${limit}`;

const idxOf = (activity: Doc): number => Number(new URL(activity.id).pathname.split('/').pop());

for (const store of STORES) {
  describe(`outbox and collections (${store})`, () => {
    let server: TestServer;
    let api: Api;
    /** Each user's activity ids, oldest first. */
    const ids: Record<'alice' | 'bob', string[]> = { alice: [], bob: [] };

    before(async () => {
      server = await startServer(store);
      api = client(server.url);
      const tokens = {
        alice: await registerUser(server.url, 'alice'),
        bob: await registerUser(server.url, 'bob'),
      };
      await registerUser(server.url, 'carol');
      ids.alice = [];
      ids.bob = [];
      const live: Record<'alice' | 'bob', string[]> = { alice: [], bob: [] };
      // Interleave the two users: mostly creates, every third step an update and every fifth a delete.
      for (let step = 0; step < PER_USER; step++) {
        for (const user of ['alice', 'bob'] as const) {
          const token = tokens[user];
          const latest = live[user].at(-1);
          let response: HttpResponse;
          if (step % 5 === 4 && latest) {
            response = await api.send('DELETE', `/assets/${latest}`, undefined, { token });
            live[user].pop();
          } else if (step % 3 === 2 && latest) {
            response = await api.send('PATCH', `/assets/${latest}`, { description: `v${step}` }, { token });
          } else {
            const name = `${user}-${step}`;
            response = await api.post('/assets', assetBody(name, { tags: ['outbox'] }), { token });
            live[user].push(name);
          }
          expect(response.status, response.text).to.be.oneOf([200, 201]);
          ids[user].push(response.json.activity.id);
        }
      }
      expect(ids.alice).to.have.length(PER_USER);
      expect(ids.bob).to.have.length(PER_USER);
    });
    after(() => server?.close());

    for (const accept of [AP_ACCEPT, LD_ACCEPT, 'application/json']) {
      it(`answers the OrderedCollection root to Accept: ${accept}`, async () => {
        const response = await getAs(api, '/users/alice/outbox', accept);
        expect(response.status).to.equal(200);
        if (accept !== 'application/json')
          expect(response.headers.get('content-type')).to.match(/^application\/activity\+json/);
        expectVaryAccept(response);
        const collection = JSON.parse(response.text);
        expect(collection['@context']).to.satisfy(
          (c: unknown) => c === AS || (Array.isArray(c) && c.includes(AS)),
        );
        expect(collection).to.include({ id: OUTBOX, type: 'OrderedCollection', totalItems: PER_USER });
        expect(collection.first)
          .to.be.a('string')
          .and.match(/^http:\/\/l2\.test\/users\/alice\/outbox\?/);
        expect(collection.last)
          .to.be.a('string')
          .and.match(/^http:\/\/l2\.test\/users\/alice\/outbox\?/);
      });
    }

    it('answers the same collection to application/json as to the AP types', async () => {
      const ap = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      const json = (await getAs(api, '/users/alice/outbox', 'application/json')).json;
      expect(json).to.deep.equal(ap);
      const page = expectAp(await getAs(api, localPath(ap.first), AP_ACCEPT));
      expect((await getAs(api, localPath(ap.first), 'application/json')).json).to.deep.equal(page);
    });

    it('answers the JSON form without an Accept header (the outbox has no HTML form)', async () => {
      const response = await api.get('/users/alice/outbox');
      expect(response.status).to.equal(200);
      expect(JSON.parse(response.text).type).to.equal('OrderedCollection');
    });

    it('answers 406 to text/html alone, on the collection and on a page', async () => {
      for (const path of ['/users/alice/outbox', '/users/alice/outbox?page=true']) {
        for (const accept of ['text/html', BROWSER_ACCEPT.replace(',*/*;q=0.8', '')]) {
          const response = await getAs(api, path, accept);
          expect(response.status, `${path} ${accept}`).to.equal(406);
          expectVaryAccept(response);
        }
      }
    });

    it('counts only that user in totalItems', async () => {
      expect(expectAp(await getAs(api, '/users/bob/outbox', AP_ACCEPT)).totalItems).to.equal(PER_USER);
      expect(expectAp(await getAs(api, '/users/carol/outbox', AP_ACCEPT)).totalItems).to.equal(0);
    });

    it('the first page holds the newest activities, full and signed, 20 by default', async () => {
      const collection = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      const page = await fetchPage(api, collection.first);
      expect(page.orderedItems.map((a: Doc) => a.id)).to.deep.equal(ids.alice.slice().reverse().slice(0, 20));
      expect(link(page, 'prev')).to.equal(null);
      expect(link(page, 'next')).to.be.a('string');
      for (const activity of page.orderedItems) {
        expect(activity['@context']).to.be.an('array').that.includes(AS);
        expect(activity.actor).to.equal(`${BASE}/users/alice`);
        expect(activity.signature).to.include({ type: 'RsaSignature2017' });
        expect(activity.object).to.be.an('object');
      }
    });

    it(`walking from first via next (limit ${PAGE}) sees every one of alice's activities exactly once, newest first, and none of bob's`, async () => {
      const collection = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      const seen: string[] = [];
      const sizes: number[] = [];
      let url: string | null = withLimit(collection.first, PAGE);
      let first = true;
      while (url !== null) {
        const page = await fetchPage(api, url);
        if (first) expect(link(page, 'prev'), 'no prev on the first page').to.equal(null);
        first = false;
        sizes.push(page.orderedItems.length);
        for (const activity of page.orderedItems) {
          expect(activity.actor).to.equal(`${BASE}/users/alice`);
          seen.push(activity.id);
        }
        url = link(page, 'next');
        expect(sizes.length).to.be.below(20);
      }
      expect(sizes).to.deep.equal([7, 7, 7, 4]);
      expect(seen).to.deep.equal(ids.alice.slice().reverse());
      expect(new Set(seen).size).to.equal(PER_USER);
      for (const id of ids.bob) expect(seen).to.not.include(id);
    });

    it('pages by ?page=true&before=<idx>: next seeks below the idx of the last item on the page', async () => {
      const collection = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      expect(new URL(collection.first).searchParams.get('page')).to.equal('true');
      const page = await fetchPage(api, withLimit(collection.first, PAGE));
      const next = new URL(link(page, 'next')!);
      expect(next.pathname).to.equal('/users/alice/outbox');
      expect(next.searchParams.get('page')).to.equal('true');
      expect(next.searchParams.get('before')).to.equal(String(idxOf(page.orderedItems.at(-1))));
    });

    it('walking prev back from the end returns the same pages', async () => {
      const collection = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      const forward: string[][] = [];
      let url: string | null = withLimit(collection.first, PAGE);
      let last: Doc = null;
      while (url !== null) {
        last = await fetchPage(api, url);
        forward.push(last.orderedItems.map((a: Doc) => a.id));
        url = link(last, 'next');
      }
      const backward: string[][] = [last.orderedItems.map((a: Doc) => a.id)];
      url = link(last, 'prev');
      while (url !== null) {
        const page = await fetchPage(api, url);
        backward.push(page.orderedItems.map((a: Doc) => a.id));
        url = link(page, 'prev');
        expect(backward.length).to.be.below(20);
      }
      expect(backward.reverse()).to.deep.equal(forward);
    });

    it('last gives the oldest activities (newest first within the page) and has no next', async () => {
      const collection = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      const page = await fetchPage(api, withLimit(collection.last, PAGE));
      expect(page.orderedItems.map((a: Doc) => a.id)).to.deep.equal(ids.alice.slice(0, PAGE).reverse());
      expect(link(page, 'next')).to.equal(null);
      expect(link(page, 'prev')).to.be.a('string');
      const defaultLast = await fetchPage(api, collection.last);
      expect(defaultLast.orderedItems.map((a: Doc) => a.id)).to.deep.equal(ids.alice.slice(0, 20).reverse());
    });

    it("bob's outbox walk holds only bob's activities", async () => {
      const collection = expectAp(await getAs(api, '/users/bob/outbox', AP_ACCEPT));
      const seen: string[] = [];
      let url: string | null = withLimit(collection.first, PAGE);
      while (url !== null) {
        const page = expectAp(await getAs(api, localPath(url), AP_ACCEPT));
        expect(page.partOf).to.equal(`${BASE}/users/bob/outbox`);
        for (const activity of page.orderedItems) {
          expect(activity.actor).to.equal(`${BASE}/users/bob`);
          seen.push(activity.id);
        }
        url = link(page, 'next');
      }
      expect(seen).to.deep.equal(ids.bob.slice().reverse());
    });

    it('an outbox with no activities has totalItems 0 and an empty first page', async () => {
      const collection = expectAp(await getAs(api, '/users/carol/outbox', AP_ACCEPT));
      expect(collection.totalItems).to.equal(0);
      const page = expectAp(await getAs(api, localPath(collection.first), AP_ACCEPT));
      expect(page.type).to.equal('OrderedCollectionPage');
      expect(page.orderedItems).to.deep.equal([]);
      expect(link(page, 'next')).to.equal(null);
      expect(link(page, 'prev')).to.equal(null);
    });

    it('every outbox item dereferences at its id to the same document', async () => {
      const collection = expectAp(await getAs(api, '/users/alice/outbox', AP_ACCEPT));
      const page = await fetchPage(api, withLimit(collection.first, PAGE));
      for (const activity of page.orderedItems) {
        const standalone = expectAp(await getAs(api, `/activities/${idxOf(activity)}`, AP_ACCEPT));
        expect(standalone).to.deep.equal(activity);
      }
    });

    it('answers 400 to an out-of-range page limit', async () => {
      for (const limit of ['0', '101', 'abc']) {
        expectProblem(
          await getAs(api, `/users/alice/outbox?page=true&limit=${limit}`, AP_ACCEPT),
          400,
          'invalid_request',
        );
      }
    });

    it('pages through the followers, newest follow first, with the true count and working next/prev links', async () => {
      await registerUser(server.url, 'dora');
      const store = server.parts.store;
      const actors: string[] = [];
      for (let i = 0; i < 5; i++) {
        const follower = aFollower({ username: aUsername('dora') });
        await store.followers.add(follower, anAcceptJob(follower), new Date());
        actors.push(follower.actor);
      }
      await store.followers.add(
        aFollower({ username: aUsername('bob') }),
        anAcceptJob(aFollower()),
        new Date(),
      );

      const root = expectAp(await getAs(api, '/users/dora/followers', AP_ACCEPT));
      expect(root).to.include({ totalItems: 5, first: `${BASE}/users/dora/followers?page=true` });
      const seen: string[] = [];
      let url: string | null = `${root.first}&limit=2`;
      const pages: Doc[] = [];
      while (url) {
        const page = expectAp(await getAs(api, localPath(url), AP_ACCEPT));
        expect(page).to.include({
          type: 'OrderedCollectionPage',
          partOf: `${BASE}/users/dora/followers`,
          totalItems: 5,
        });
        pages.push(page);
        seen.push(...page.orderedItems);
        url = page.next ?? null;
      }
      expect(seen).to.deep.equal([...actors].reverse());
      expect(pages).to.have.length(3);
      const back = expectAp(await getAs(api, localPath(pages[2].prev), AP_ACCEPT));
      expect(back.orderedItems).to.deep.equal(pages[1].orderedItems);
    });

    it('shows the follower count and the handle to follow on the profile page', async () => {
      await registerUser(server.url, 'erin');
      const follower = aFollower({ username: aUsername('erin') });
      await server.parts.store.followers.add(follower, anAcceptJob(follower), new Date());

      const page = await getAs(api, '/users/erin', 'text/html');

      expect(page.text).to.match(/1 follower</);
      expect(page.text).to.match(/<input id="follow-handle"[^>]*readonly value="@erin@l2\.test"/);
      expect(page.text).to.match(/<label for="follow-handle">/);
    });

    for (const name of ['followers', 'following']) {
      it(`/users/{u}/${name} is an OrderedCollection with totalItems 0, for AP and JSON`, async () => {
        for (const accept of [AP_ACCEPT, LD_ACCEPT, 'application/json']) {
          const response = await getAs(api, `/users/alice/${name}`, accept);
          expect(response.status, accept).to.equal(200);
          expectVaryAccept(response);
          if (accept !== 'application/json')
            expect(response.headers.get('content-type')).to.match(/^application\/activity\+json/);
          const collection = JSON.parse(response.text);
          expect(collection, accept).to.include({
            id: `${BASE}/users/alice/${name}`,
            type: 'OrderedCollection',
            totalItems: 0,
          });
          expect(collection['@context']).to.satisfy(
            (c: unknown) => c === AS || (Array.isArray(c) && c.includes(AS)),
          );
        }
        // A browser gets the followers page (API.md §4.3); `following` has none.
        expect((await getAs(api, `/users/alice/${name}`, 'text/html')).status).to.equal(
          name === 'followers' ? 200 : 406,
        );
      });
    }
  });
}
