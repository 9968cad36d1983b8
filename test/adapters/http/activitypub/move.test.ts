// API.md §4.3 "Moving out" and "Moving in" against a real remote server: a Fedify peer follows alice and serves the
// accounts she names — carol, who lists alice in alsoKnownAs, and dave, who does not. What the peer receives is
// read with Fedify's own vocabulary and verifier, as a Fedify-based server (and, in shape, Mastodon) reads it.
import { Move, Person, Update } from '@fedify/fedify';
import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { FedifyPeer, lookUp, parseAs, type Received } from '../../../support/fedify-peer.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  assetBody,
  BROWSER_ACCEPT,
  createAsset,
  expectProblem,
  startServer,
  STORES,
  type Api,
} from '../registry/support.js';

const PASSWORD = 'correct horse battery';
const DAY = 86_400;

const isMove = (r: Received) => r.body.type === 'Move';
const isProfileUpdate = (r: Received) => r.body.type === 'Update' && r.body.object?.type === 'Person';

for (const store of STORES) {
  describe(`moving an account, with a Fedify peer (${store})`, function () {
    let server: TestServer;
    let api: Api;
    let alice: string;
    let aliceActor: string;
    let peer: FedifyPeer;

    const moveTo = (target: string, password = PASSWORD) =>
      api.post('/auth/move', { target, current_password: password }, { token: alice });
    const getJson = (path: string, token?: string) =>
      api.get(path, { ...(token ? { token } : {}), headers: { accept: 'application/json' } });
    const patchProfile = (changes: Record<string, unknown>) =>
      api.send('PATCH', '/users/alice', changes, { token: alice });
    /** Everything the peer received before the Update a later profile change makes: a fence without waiting. */
    const receivedBeforeNextChange = async (): Promise<Received[]> => {
      const seen = peer.received.length;
      const fence = `fence ${Math.random()}`;
      expect((await patchProfile({ bio: fence })).status).to.equal(200);
      await peer.waitFor((r) => isProfileUpdate(r) && String(r.body.object.summary).includes(fence));
      return peer.received.slice(seen).filter((r) => !String(r.body.object?.summary).includes(fence));
    };

    beforeEach(async () => {
      server = await startServer(store, { publicUrlIsServer: true });
      api = client(server.url);
      alice = await registerUser(server.url, 'alice', PASSWORD);
      aliceActor = `${server.url}/users/alice`;
      peer = await FedifyPeer.start({
        host: '127.0.0.2',
        actors: { carol: { alsoKnownAs: [aliceActor] }, dave: {} },
      });
      await peer.send(`${server.url}/users/alice/inbox`, peer.follow(aliceActor));
      await peer.waitFor((r) => r.body.type === 'Accept');
    });
    afterEach(async () => {
      await server.close();
      await peer.close();
    });

    it('moves to @carol: the follower receives a signed Move to carol, the actor of alice already showing movedTo, and an Update', async () => {
      const carol = peer.actorIdOf('carol');

      const moved = await moveTo(peer.handleOf('carol'));

      expect(moved.status, moved.text).to.equal(200);
      expect(moved.json).to.deep.include({ moved_to: carol, followers: 1 });
      const delivered = await peer.waitFor(isMove);
      expect(delivered.httpSignedBy, 'HTTP signature (Fedify verifyRequest)').to.equal(
        `${aliceActor}#main-key`,
      );
      expect(delivered.path, 'the shared inbox').to.equal('/inbox');
      const activity = await parseAs(delivered.body);
      expect(activity).to.be.instanceOf(Move);
      expect((activity as Move).targetId?.href).to.equal(carol);
      expect((activity as Move).objectId?.href).to.equal(aliceActor);
      expect(delivered.body.id).to.equal(`${aliceActor}#moves/1`);
      // Served from the write on, before any job runs: Misskey re-reads the actor when the Move arrives.
      const actor = await lookUp(aliceActor);
      expect(actor).to.be.instanceOf(Person);
      expect((actor as Person).successorId?.href, 'Fedify reads movedTo').to.equal(carol);
      // The followers are told by an Update of the actor too, LD-signed as every profile change.
      const update = await peer.waitFor((r) => isProfileUpdate(r) && r.body.object.movedTo === carol);
      expect(update.ldVerified, 'the Update is LD-signed (Fedify verifyJsonLd)').to.equal(true);
      expect(((await parseAs(update.body)) as Update).id?.href).to.equal(`${aliceActor}#updates/1`);

      expect((await getJson('/auth/move', alice)).json).to.deep.equal({
        moved_to: carol,
        moved_at: moved.json.moved_at,
        also_known_as: [],
      });
      expect((await getJson('/users/alice')).json).to.include({ moved_to: carol });
      const page = await api.get('/users/alice', { headers: { accept: BROWSER_ACCEPT } });
      expect(page.text).to.include(`has moved to <a href="${carol}"`);
    });

    it('answers a Follow while moved with a signed Reject and stores nothing; after a cancel a Follow is accepted', async () => {
      expect((await moveTo(peer.handleOf('carol'))).status).to.equal(200);
      const follow = { ...peer.follow(aliceActor), actor: peer.actorIdOf('dave') };
      const followers = async () =>
        (await api.get('/users/alice/followers', { headers: { accept: 'application/activity+json' } })).json
          .totalItems;

      expect(
        (await peer.send(`${server.url}/users/alice/inbox`, follow, { keyId: peer.keyIdOf('dave') })).status,
      ).to.equal(202);

      const rejected = await peer.waitFor((r) => r.body.type === 'Reject' && r.body.object?.id === follow.id);
      expect(rejected.path).to.equal('/users/dave/inbox');
      expect(rejected.httpSignedBy).to.equal(`${aliceActor}#main-key`);
      expect(await followers(), 'only the follower from before the move').to.equal(1);
      expect((await api.post('/auth/move/cancel', {}, { token: alice })).status).to.equal(200);
      const again = { ...peer.follow(aliceActor), actor: peer.actorIdOf('dave') };
      expect(
        (await peer.send(`${server.url}/users/alice/inbox`, again, { keyId: peer.keyIdOf('dave') })).status,
      ).to.equal(202);
      await peer.waitFor((r) => r.body.type === 'Accept' && r.body.object?.id === again.id);
      expect(await followers()).to.equal(2);
    });

    it('refuses a target whose alsoKnownAs does not list alice: 400 path target, nothing queued or sent', async () => {
      const refused = await moveTo(peer.actorIdOf('dave'));

      const body = expectProblem(refused, 400, 'invalid_request');
      expect(body.errors[0].path).to.equal('target');
      expect(await receivedBeforeNextChange()).to.deep.equal([]);
      expect((await getJson('/auth/move', alice)).json.moved_to).to.equal(null);
    });

    it('refuses a wrong password with 401 before the target is read', async () => {
      const gets = peer.gets.length;

      expectProblem(await moveTo(peer.actorIdOf('carol'), 'wrong password'), 401, 'invalid_credentials');

      expect(peer.gets.slice(gets)).to.deep.equal([]);
    });

    it('cancels with an Update without movedTo; a move within 30 days of the last is refused with 429 Retry-After', async () => {
      expect((await moveTo(peer.actorIdOf('carol'))).status).to.equal(200);
      await peer.waitFor(isMove);

      const cancelled = await api.post('/auth/move/cancel', {}, { token: alice });

      expect(cancelled.status, cancelled.text).to.equal(200);
      expect(cancelled.json).to.deep.equal({ moved_to: null, moved_at: null, also_known_as: [] });
      const update = await peer.waitFor(
        (r) => isProfileUpdate(r) && !('movedTo' in r.body.object) && r.body.id.endsWith('#updates/2'),
      );
      expect(await parseAs(update.body)).to.be.instanceOf(Update);
      expect(((await lookUp(aliceActor)) as Person).successorId).to.equal(null);
      const again = await moveTo(peer.actorIdOf('carol'));
      expectProblem(again, 429, 'rate_limited');
      expect(Number(again.headers.get('retry-after'))).to.be.within(30 * DAY - 60, 30 * DAY);
      const second = await api.post('/auth/move/cancel', {}, { token: alice });
      expect(second.json.moved_to).to.equal(null);
    });

    it('refuses asset writes while moved with 403 naming the target, and takes them again after a cancel', async () => {
      await createAsset(api, alice, 'before');
      const carol = peer.actorIdOf('carol');
      expect((await moveTo(carol)).status).to.equal(200);

      for (const refused of [
        await api.post('/assets', assetBody('after'), { token: alice }),
        await api.send('PATCH', '/assets/before', { description: 'x' }, { token: alice }),
        await api.send('DELETE', '/assets/before', undefined, { token: alice }),
      ])
        expect(expectProblem(refused, 403, 'forbidden').detail).to.include(carol);

      await api.post('/auth/move/cancel', {}, { token: alice });
      expect((await api.post('/assets', assetBody('after'), { token: alice })).status).to.equal(201);
    });

    it('takes also_known_as by URL and by handle as the actors’ ids, which Fedify reads as aliasIds', async () => {
      const answer = await patchProfile({ also_known_as: [peer.actorIdOf('carol'), peer.handleOf('dave')] });

      expect(answer.status, answer.text).to.equal(200);
      const ids = [peer.actorIdOf('carol'), peer.actorIdOf('dave')];
      expect(answer.json.also_known_as).to.deep.equal(ids);
      const actor = (await lookUp(aliceActor)) as Person;
      expect(actor.aliasIds.map(String)).to.deep.equal(ids);
      expect((await getJson('/auth/move', alice)).json.also_known_as).to.deep.equal(ids);
    });

    for (const [what, entries] of [
      ['six entries', ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `https://${n}.example/users/x`)],
      ['alice herself', ['@alice@' + 'HOST']],
      ['an actor that does not resolve', ['@nobody@' + 'PEER']],
    ] as const)
      it(`refuses ${what} in also_known_as: 400 path also_known_as, nothing changed`, async () => {
        const named = entries.map((e) =>
          e.replace('HOST', new URL(server.url).host).replace('PEER', peer.host),
        );

        const body = expectProblem(await patchProfile({ also_known_as: named }), 400, 'invalid_request');

        expect(body.errors[0].path).to.equal('also_known_as');
        expect((await getJson('/users/alice')).json.also_known_as).to.deep.equal([]);
      });
  });
}
