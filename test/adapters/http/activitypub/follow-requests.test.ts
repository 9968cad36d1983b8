// API.md §4.3 "Follow requests" and "Removing a follower" against a real remote server: a Fedify peer follows a
// locked account, and receives — verified with Fedify's own code — the Accept or the Reject the person decides, or
// the Reject of "remove follower"; the routes' auth, 404s and budget from outside.
import { Reject } from '@fedify/fedify';
import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { FedifyPeer, parseAs, type Received } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  BROWSER_ACCEPT,
  createAsset,
  expectProblem,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const JSON_ACCEPT = { headers: { accept: 'application/json' } };

for (const store of STORES) {
  describe(`follow requests and removing followers, with a Fedify peer (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let aliceActor: string;
    let peer: FedifyPeer;

    const start = async (env: Record<string, string> = {}) => {
      server = await startServer(store, { publicUrlIsServer: true, env });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      aliceActor = `${server.url}/users/alice`;
    };
    const lock = async (on = true) => {
      const response = await api.send(
        'PATCH',
        '/users/alice',
        { manually_approves_followers: on },
        { token: alice },
      );
      expect(response.status, response.text).to.equal(200);
    };
    /** `name` of the peer follows alice (signed with the peer's key under that actor's key id). */
    const followAs = async (name = 'bob', id?: string) => {
      const follow = { ...peer.follow(aliceActor, id), actor: peer.actorIdOf(name) };
      const response = await peer.send(`${aliceActor}/inbox`, follow, { keyId: peer.keyIdOf(name) });
      expect(response.status, await response.text()).to.equal(202);
      return follow;
    };
    const requests = async (token = alice) => {
      const response = await api.get('/users/alice/follow_requests', { ...JSON_ACCEPT, token });
      expect(response.status, response.text).to.equal(200);
      return response.json;
    };
    const followers = async (): Promise<Json> => {
      const root = await api.get('/users/alice/followers', { headers: { accept: AP_ACCEPT } });
      const page = await api.get('/users/alice/followers?page=true', { headers: { accept: AP_ACCEPT } });
      return { totalItems: root.json.totalItems, items: page.json.orderedItems };
    };
    const decide = (id: string, verb: 'accept' | 'reject', token = alice) =>
      api.post(`/users/alice/follow_requests/${encodeURIComponent(id)}/${verb}`, {}, { token });
    const pending = async () => (await server.parts.store.queueAdministration.stats()).pending;
    const expectSignedByAlice = (received: Received, type: string) => {
      expect(received.body.type).to.equal(type);
      expect(received.path, 'the follower’s own inbox').to.equal('/users/bob/inbox');
      expect(received.httpSignedBy, 'verified by Fedify with alice’s key').to.equal(`${aliceActor}#main-key`);
    };

    beforeEach(async () => {
      await start();
      peer = await FedifyPeer.start({ actors: { carol: {} } });
    });
    afterEach(async () => {
      await server?.close();
      await peer?.close();
    });

    it('keeps the Follow of a locked account as a request: listed, newest first, no follower, nothing sent', async () => {
      await lock();
      const follow = await followAs('bob');
      await followAs('carol');

      const list = await requests();

      expect(list.total).to.equal(2);
      expect(list.items.map((i: Json) => i.actor)).to.deep.equal([peer.actorIdOf('carol'), peer.actorId]);
      expect(Object.keys(list.items[0]).sort()).to.deep.equal(['actor', 'id', 'requested_at']);
      expect(await pending(), 'nothing queued').to.equal(0);
      expect(peer.received.map((r) => r.body.type)).to.deep.equal([]);
      expect(await followers()).to.deep.equal({ totalItems: 0, items: [] });
      const actor = await api.get('/users/alice', { headers: { accept: AP_ACCEPT } });
      expect(actor.json.manuallyApprovesFollowers).to.equal(true);
      expect(follow.id).to.be.a('string');
    });

    it('accepts a request: a signed Accept of their Follow arrives, they are a follower, and it is decided', async () => {
      await lock();
      const follow = await followAs('bob');
      const [request] = (await requests()).items;

      const response = await decide(request.id, 'accept');

      expect(response.status, response.text).to.equal(200);
      expect(response.json).to.deep.equal({ id: request.id, actor: peer.actorId, state: 'accepted' });
      const accept = await peer.waitFor((r) => r.body.type === 'Accept');
      expectSignedByAlice(accept, 'Accept');
      expect(accept.body.object).to.deep.equal({
        id: follow.id,
        type: 'Follow',
        actor: peer.actorId,
        object: aliceActor,
      });
      expect(await followers()).to.deep.equal({ totalItems: 1, items: [peer.actorId] });
      expect((await requests()).items).to.deep.equal([]);
      expectProblem(await decide(request.id, 'accept'), 404, 'not_found');
      expectProblem(await decide(request.id, 'reject'), 404, 'not_found');
    });

    it('rejects a request: a signed Reject of their Follow arrives, which Fedify reads as a Reject; nobody follows', async () => {
      await lock();
      const follow = await followAs('bob');
      const [request] = (await requests()).items;

      const response = await decide(request.id, 'reject');

      expect(response.status, response.text).to.equal(200);
      expect(response.json).to.deep.equal({ id: request.id, actor: peer.actorId, state: 'rejected' });
      const reject = await peer.waitFor((r) => r.body.type === 'Reject');
      expectSignedByAlice(reject, 'Reject');
      expect(reject.body).to.deep.include({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${aliceActor}#rejects/${request.id}`,
        actor: aliceActor,
      });
      expect(reject.body.object).to.deep.equal({
        id: follow.id,
        type: 'Follow',
        actor: peer.actorId,
        object: aliceActor,
      });
      const parsed = await parseAs(reject.body);
      expect(parsed).to.be.instanceOf(Reject);
      expect((parsed as Reject).objectId?.href).to.equal(follow.id);
      expect(await followers()).to.deep.equal({ totalItems: 0, items: [] });
      expectProblem(await decide(request.id, 'reject'), 404, 'not_found');
      await followAs('bob');
      expect((await requests()).total, 'they may ask again').to.equal(1);
    });

    it('keeps one request for a repeated Follow, answered with its latest Follow id; an Undo removes it', async () => {
      await lock();
      await followAs('bob');
      const [first] = (await requests()).items;
      const latest = await followAs('bob');

      const list = await requests();
      expect(list.total).to.equal(1);
      expect(list.items[0].id).to.equal(first.id);
      await followAs('carol');
      const undo = {
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${peer.actorIdOf('carol')}/undo/1`,
        type: 'Undo',
        actor: peer.actorIdOf('carol'),
        object: { type: 'Follow', actor: peer.actorIdOf('carol'), object: aliceActor },
      };
      const undone = await peer.send(`${aliceActor}/inbox`, undo, { keyId: peer.keyIdOf('carol') });
      expect(undone.status).to.equal(202);
      expect((await requests()).items.map((i: Json) => i.actor)).to.deep.equal([peer.actorId]);

      expect((await decide(first.id, 'accept')).status).to.equal(200);
      const accept = await peer.waitFor((r) => r.body.type === 'Accept');
      expect(accept.body.object.id).to.equal(latest.id);
    });

    it('accepts every waiting request, one Accept each, when the account is unlocked', async () => {
      await lock();
      await followAs('bob');
      await followAs('carol');

      await lock(false);

      for (const name of ['bob', 'carol'])
        await peer.waitFor((r) => r.body.type === 'Accept' && r.path === `/users/${name}/inbox`);
      const accepts = peer.received.filter((r) => r.body.type === 'Accept');
      expect(accepts.map((r) => r.path).sort()).to.deep.equal(['/users/bob/inbox', '/users/carol/inbox']);
      expect((await followers()).totalItems).to.equal(2);
      expect((await requests()).total).to.equal(0);
    });

    it('removes a follower: a signed Reject of their Follow reaches their inbox, and the next asset is not sent to them', async () => {
      const control = await FedifyPeer.start();
      try {
        const follow = await followAs('bob');
        await peer.waitFor((r) => r.body.type === 'Accept');
        await control.send(`${aliceActor}/inbox`, control.follow(aliceActor));
        await control.waitFor((r) => r.body.type === 'Accept');

        const response = await api.post(
          '/users/alice/followers/remove',
          { actor: peer.actorId },
          { token: alice },
        );

        expect(response.status, response.text).to.equal(200);
        expect(response.json).to.deep.equal({ actor: peer.actorId, removed: true });
        const reject = await peer.waitFor((r) => r.body.type === 'Reject');
        expectSignedByAlice(reject, 'Reject');
        expect(reject.body.id).to.match(new RegExp(`^${aliceActor}#rejects/.+`));
        expect(reject.body.object).to.deep.include({ id: follow.id, type: 'Follow', actor: peer.actorId });
        expect(await parseAs(reject.body)).to.be.instanceOf(Reject);
        expect(await followers()).to.deep.equal({ totalItems: 1, items: [control.actorId] });

        await createAsset(api, alice, 'after-removal');
        await control.waitFor((r) => r.body.type === 'Create');
        // Every delivery of the Create is done once nothing is pending: the removed follower got none.
        while ((await pending()) > 0) await new Promise((resolve) => setImmediate(resolve));
        expect(peer.received.filter((r) => r.body.type === 'Create')).to.deep.equal([]);
        expectProblem(
          await api.post('/users/alice/followers/remove', { actor: peer.actorId }, { token: alice }),
          404,
          'not_found',
        );
      } finally {
        await control.close();
      }
    });

    describe('who may see and decide', () => {
      it('lets only the user themself list: another user or a scoped token 403, no token 401, a browser to log in', async () => {
        await lock();
        await followAs('bob');
        const bob = await registerUser(server.url, 'bob');
        const attach = await api.post(
          '/renderers/attach',
          { l1_server: 'https://l1.example' },
          { token: alice },
        );
        const scoped = attach.json.access_token as string;

        expectProblem(
          await api.get('/users/alice/follow_requests', { ...JSON_ACCEPT, token: bob }),
          403,
          'forbidden',
        );
        expectProblem(
          await api.get('/users/alice/follow_requests', { ...JSON_ACCEPT, token: scoped }),
          403,
          'forbidden',
        );
        expectProblem(await api.get('/users/alice/follow_requests', JSON_ACCEPT), 401, 'unauthenticated');
        const browser = await api.get('/users/alice/follow_requests', {
          headers: { accept: BROWSER_ACCEPT },
        });
        expect(browser.status).to.equal(303);
        expect(browser.headers.get('location')).to.equal('/login?next=%2Fusers%2Falice%2Ffollow_requests');
        const own = await api.get('/users/alice/follow_requests', { ...JSON_ACCEPT, token: alice });
        expect(own.headers.get('cache-control')).to.equal('private, no-store');

        const [request] = (await requests()).items;
        for (const token of [bob, scoped])
          expectProblem(await decide(request.id, 'accept', token), 403, 'forbidden');
        expectProblem(
          await api.post('/users/alice/followers/remove', { actor: peer.actorId }, { token: bob }),
          403,
          'forbidden',
        );
        expect((await requests()).total, 'nothing decided').to.equal(1);
      });

      it('answers 404 for an unknown request, another user’s, and a follower that is none', async () => {
        const bob = await registerUser(server.url, 'bob');
        await api.send('PATCH', '/users/bob', { manually_approves_followers: true }, { token: bob });
        const toBob = { ...peer.follow(`${server.url}/users/bob`) };
        expect((await peer.send(`${server.url}/users/bob/inbox`, toBob)).status).to.equal(202);
        const bobs = await api.get('/users/bob/follow_requests', { ...JSON_ACCEPT, token: bob });
        const [bobsRequest] = bobs.json.items;

        expectProblem(await decide('no-such-request', 'accept'), 404, 'not_found');
        expectProblem(await decide(bobsRequest.id, 'reject'), 404, 'not_found');
        expectProblem(
          await api.post('/users/alice/followers/remove', { actor: peer.actorId }, { token: alice }),
          404,
          'not_found',
        );
        expect(bobs.json.total).to.equal(1);
        expect(
          (await api.get('/users/bob/follow_requests', { ...JSON_ACCEPT, token: bob })).json.total,
        ).to.equal(1);
      });
    });

    it('answers 429 with Retry-After once FOLLOWER_ACTIONS_PER_USER actions are spent; refusals cost nothing', async () => {
      await server.close();
      await start({ FOLLOWER_ACTIONS_PER_USER: '2' });
      await lock();
      for (const name of ['bob', 'carol']) await followAs(name);
      for (let n = 0; n < 3; n++) expectProblem(await decide('unknown', 'reject'), 404, 'not_found');
      const [first, second] = (await requests()).items;
      expect((await decide(first.id, 'reject')).status).to.equal(200);

      expect((await decide(second.id, 'accept')).status).to.equal(200);
      const follower = peer.actorIdOf('carol') === second.actor ? second.actor : first.actor;
      const refused = await api.post(
        '/users/alice/followers/remove',
        { actor: second.actor },
        { token: alice },
      );

      const problem = expectProblem(refused, 429, 'rate_limited');
      expect(problem).to.be.an('object');
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
      expect((await followers()).totalItems, 'nothing removed').to.equal(1);
      expect(follower).to.be.a('string');
    });
  });
}
