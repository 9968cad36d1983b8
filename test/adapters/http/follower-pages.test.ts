// API.md §4.3 from a browser: the follow requests page (Accept and Reject forms), the followers page (a Remove form
// per row for the user themself, none for anyone else), the links with the waiting count, and the followers
// collection still answered to peers (no Accept, */*, a tie).
import { expect } from 'chai';
import type { Persistence } from '../../../src/application/ports/persistence.js';
import { FormBrowser } from '../../support/browser.js';
import { aFollower, anAcceptJob, aUsername } from '../../support/builders.js';
import { client, registerUser } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer, STORES } from './helpers.js';

const HTML = { headers: { accept: 'text/html' } };
const SCRIPT = '<script>alert(1)</script>';

/** The page's <main>. */
const mainOf = (html: string): string => html.slice(html.indexOf('<main'), html.indexOf('</main>'));
const formsTo = (html: string, action: RegExp): string[] =>
  (html.match(/<form\b[\s\S]*?<\/form>/g) ?? []).filter((form) => action.test(form));

for (const store of STORES) {
  describe(`the follow requests and followers pages (${store})`, () => {
    let server: TestServer;
    let db: Persistence;
    const alice = aUsername('alice');

    async function signedInBrowser(username: string): Promise<FormBrowser> {
      const b = new FormBrowser(server.url);
      await b.get('/login');
      const login = await b.submit('/auth/login', { username, password: PASSWORD });
      expect(login.status, login.text).to.equal(303);
      return b;
    }
    const waiting = (actor: string, id: string) =>
      db.followRequests.add({
        id,
        username: alice,
        actor,
        inbox: `${actor}/inbox`,
        sharedInbox: null,
        followId: `${actor}/follows/1`,
        requestedAt: new Date(),
      });
    const follower = async (actor: string) => {
      const f = aFollower({ actor, inbox: `${actor}/inbox` });
      await db.followers.add(f, anAcceptJob(f), new Date());
    };

    beforeEach(async () => {
      // No worker: the Accepts and Rejects queued here go nowhere.
      server = await startServer(store, { background: false });
      db = server.parts.store;
      await registerUser(server.url, 'alice', PASSWORD);
      await registerUser(server.url, 'bob', PASSWORD);
    });
    afterEach(() => server?.close());

    it('lists each request with its actor as a link and Accept and Reject forms; each form decides and comes back', async () => {
      await waiting('https://one.example/users/a', 'r1');
      await waiting(`https://two.example/users/${encodeURIComponent(SCRIPT)}`, 'r2');
      const browser = await signedInBrowser('alice');

      const page = await browser.get('/users/alice/follow_requests');

      expect(page.status).to.equal(200);
      const main = mainOf(page.text);
      expect(main).to.include('href="https://one.example/users/a"');
      expect(main).to.not.include(SCRIPT);
      expect(page.text.match(/<h1\b/g)).to.have.length(1);
      const accepts = formsTo(main, /\/follow_requests\/r\d\/accept"/);
      const rejects = formsTo(main, /\/follow_requests\/r\d\/reject"/);
      expect(accepts).to.have.length(2);
      expect(rejects).to.have.length(2);
      for (const form of [...accepts, ...rejects]) expect(form).to.match(/name="_csrf" value="[^"]+"/);
      expect(page.text).to.not.match(/eyJ[\w-]+\.[\w-]+\./);

      const accepted = await browser.submit('/users/alice/follow_requests/r1/accept', {});
      expect(accepted.status).to.equal(303);
      expect(accepted.headers.get('location')).to.equal('/users/alice/follow_requests');
      const rejected = await browser.submit('/users/alice/follow_requests/r2/reject', {});
      expect(rejected.status).to.equal(303);
      expect(await db.followRequests.count({ username: alice })).to.equal(0);
      expect(await db.followers.count({ username: alice })).to.equal(1);
      expect(mainOf((await browser.get('/users/alice/follow_requests')).text)).to.include(
        'No follow request',
      );
      const forged = await browser.submit('/users/alice/follow_requests/r1/accept', { _csrf: 'forged' });
      expect(forged.status).to.equal(403);
    });

    it('shows the owner a Remove form per follower, newest first, which removes and comes back', async () => {
      await follower('https://one.example/users/a');
      await follower('https://two.example/users/b');
      const browser = await signedInBrowser('alice');

      const page = await browser.get('/users/alice/followers');

      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const main = mainOf(page.text);
      expect(main.indexOf('two.example')).to.be.lessThan(main.indexOf('one.example'));
      const removes = formsTo(main, /action="\/users\/alice\/followers\/remove"/);
      expect(removes).to.have.length(2);
      expect(removes[0]).to.include('name="actor" value="https://two.example/users/b"');
      expect(removes[0]).to.match(/name="_csrf" value="[^"]+"/);

      const removed = await browser.submit('/users/alice/followers/remove', {
        actor: 'https://two.example/users/b',
      });

      expect(removed.status).to.equal(303);
      expect(removed.headers.get('location')).to.equal('/users/alice/followers');
      expect(await db.followers.count({ username: alice })).to.equal(1);
    });

    it('shows anyone else the followers without a form', async () => {
      await follower('https://one.example/users/a');
      const bob = await signedInBrowser('bob');
      for (const html of [
        (await bob.get('/users/alice/followers')).text,
        (await client(server.url).get('/users/alice/followers', HTML)).text,
      ]) {
        expect(mainOf(html)).to.include('https://one.example/users/a');
        expect(formsTo(mainOf(html), /followers\/remove/)).to.deep.equal([]);
      }
    });

    it('still answers the collection to no Accept, */* and a tie of HTML with ActivityStreams', async () => {
      await follower('https://one.example/users/a');
      const api = client(server.url);
      for (const accept of [undefined, '*/*', 'application/activity+json, text/html']) {
        const response = await api.get('/users/alice/followers', accept ? { headers: { accept } } : {});
        expect(response.status, String(accept)).to.equal(200);
        expect(response.json, String(accept)).to.deep.include({ type: 'OrderedCollection', totalItems: 1 });
      }
    });

    it('links the requests with the number waiting from the user’s own page and the Account page', async () => {
      await waiting('https://one.example/users/a', 'r1');
      await waiting('https://two.example/users/b', 'r2');
      const browser = await signedInBrowser('alice');

      for (const path of ['/users/alice', '/account']) {
        const html = (await browser.get(path)).text;
        expect(html, path).to.match(/href="\/users\/alice\/follow_requests">[^<]*2 waiting/);
      }
      const bob = await signedInBrowser('bob');
      expect((await bob.get('/users/alice')).text).to.not.include('/follow_requests');
    });
  });
}
