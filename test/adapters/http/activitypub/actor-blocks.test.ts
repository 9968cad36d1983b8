// Blocking an actor (API.md §4.3) against a real Fedify peer: what the peer receives (a signed Reject of its Follow
// and a Block — queued in that order, but a lane may deliver both at once, so they may arrive in either; an Undo of
// the Block on unblock), what the followers collection shows, and the refusals.
import { Block, Reject, Undo } from '@fedify/fedify';
import { expect } from 'chai';
import { FedifyPeer, parseAs, type Received } from '../../../support/fedify-peer.js';
import { client, registerUser } from '../../../support/http.js';
import type { TestServer } from '../../../support/test-server.js';
import { AP_ACCEPT, BROWSER_ACCEPT, expectProblem, startServer, type Api } from '../registry/support.js';

const FOLLOWER_ACTIONS = 4;
const JSON_ACCEPT = 'application/json';

describe('blocking an actor (API.md §4.3)', function () {
  let server: TestServer;
  let api: Api;
  let alice: string;
  let aliceActor: string;
  let peer: FedifyPeer;

  const followerCount = async (): Promise<number> =>
    (await api.get('/users/alice/followers', { headers: { accept: AP_ACCEPT } })).json.totalItems;
  const block = (actor: string, token = alice) => api.post('/users/alice/blocks', { actor }, { token });
  const listBlocks = (token = alice) =>
    api.get('/users/alice/blocks', { token, headers: { accept: JSON_ACCEPT } });
  const ofType = (type: string) => (r: Received) => r.body.type === type;
  const requests = async () => {
    const response = await api.get('/users/alice/follow_requests', {
      token: alice,
      headers: { accept: JSON_ACCEPT },
    });
    expect(response.status, response.text).to.equal(200);
    return response.json;
  };

  /** The peer's bob follows alice, and his server has her Accept. */
  async function followed(): Promise<void> {
    const follow = peer.follow(aliceActor);
    expect((await peer.send(`${server.url}/users/alice/inbox`, follow)).status).to.equal(202);
    await peer.waitFor((r) => r.body.type === 'Accept' && r.body.object.id === follow.id);
    expect(await followerCount()).to.equal(1);
  }

  beforeEach(async () => {
    server = await startServer('sqlite', {
      publicUrlIsServer: true,
      env: { FOLLOWER_ACTIONS_PER_USER: String(FOLLOWER_ACTIONS) },
    });
    api = client(server.url);
    alice = await registerUser(server.url, 'alice');
    aliceActor = `${server.url}/users/alice`;
    peer = await FedifyPeer.start();
  });
  afterEach(async () => {
    await server.close();
    await peer.close();
  });

  it('blocks a follower by URL: a signed Reject of its Follow and a Block reach its inbox, and it follows no more', async () => {
    await followed();

    const blocked = await block(peer.actorId);

    expect(blocked.status, blocked.text).to.equal(201);
    expect(blocked.json).to.have.all.keys('id', 'actor', 'created_at');
    expect(blocked.json.actor).to.equal(peer.actorId);
    expect(await followerCount()).to.equal(0);
    const blockReceived = await peer.waitFor(ofType('Block'));
    const rejectReceived = await peer.waitFor(ofType('Reject'));
    for (const received of [rejectReceived, blockReceived]) {
      expect(received.path).to.equal('/users/bob/inbox');
      expect(received.httpSignedBy).to.equal(`${aliceActor}#main-key`);
      expect(received.body['@context']).to.equal('https://www.w3.org/ns/activitystreams');
      expect(received.body).to.not.have.property('signature');
    }
    expect(blockReceived.body).to.deep.equal({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${aliceActor}#blocks/${blocked.json.id}`,
      type: 'Block',
      actor: aliceActor,
      object: peer.actorId,
    });
    const parsedBlock = await parseAs(blockReceived.body);
    expect(parsedBlock).to.be.instanceOf(Block);
    expect((parsedBlock as Block).objectId?.href).to.equal(peer.actorId);
    const parsedReject = await parseAs(rejectReceived.body);
    expect(parsedReject).to.be.instanceOf(Reject);
    expect(rejectReceived.body.id).to.equal(`${aliceActor}#rejects/${blocked.json.id}`);
    expect(rejectReceived.body.object).to.include({
      type: 'Follow',
      actor: peer.actorId,
      object: aliceActor,
    });

    const again = await block(peer.actorId);
    expect(again.status).to.equal(200);
    expect(again.json).to.deep.equal(blocked.json);
  });

  it('blocks an actor whose follow request waits: a signed Reject of its Follow and a Block, and no request is left', async () => {
    const locked = await api.send(
      'PATCH',
      '/users/alice',
      { manually_approves_followers: true },
      { token: alice },
    );
    expect(locked.status, locked.text).to.equal(200);
    const follow = peer.follow(aliceActor);
    expect((await peer.send(`${server.url}/users/alice/inbox`, follow)).status).to.equal(202);
    expect((await requests()).total, 'a request, not a follower').to.equal(1);

    const blocked = await block(peer.actorId);

    expect(blocked.status, blocked.text).to.equal(201);
    expect(await requests()).to.include({ total: 0 });
    expect(await followerCount()).to.equal(0);
    const blockReceived = await peer.waitFor(ofType('Block'));
    const rejectReceived = await peer.waitFor(ofType('Reject'));
    for (const received of [rejectReceived, blockReceived]) {
      expect(received.path).to.equal('/users/bob/inbox');
      expect(received.httpSignedBy).to.equal(`${aliceActor}#main-key`);
    }
    expect(await parseAs(rejectReceived.body)).to.be.instanceOf(Reject);
    expect(rejectReceived.body.id).to.equal(`${aliceActor}#rejects/${blocked.json.id}`);
    expect(rejectReceived.body.object).to.deep.equal({
      id: follow.id,
      type: 'Follow',
      actor: peer.actorId,
      object: aliceActor,
    });
    expect(await parseAs(blockReceived.body)).to.be.instanceOf(Block);
    expect(blockReceived.body.object).to.equal(peer.actorId);
  });

  it('answers a later Follow of a blocked actor with a signed Reject: its actor not fetched, nothing stored', async () => {
    await followed();
    expect((await block(peer.actorId)).status).to.equal(201);
    await peer.waitFor(ofType('Block'));
    const fetchesBefore = peer.gets.filter((path) => path === '/users/bob').length;
    const follow = peer.follow(aliceActor);

    expect((await peer.send(`${server.url}/users/alice/inbox`, follow)).status).to.equal(202);

    const rejected = await peer.waitFor((r) => r.body.type === 'Reject' && r.body.object?.id === follow.id);
    expect(rejected.path).to.equal('/users/bob/inbox');
    expect(rejected.httpSignedBy).to.equal(`${aliceActor}#main-key`);
    expect(await parseAs(rejected.body)).to.be.instanceOf(Reject);
    expect(peer.gets.filter((path) => path === '/users/bob').length, 'no fetch of its actor').to.equal(
      fetchesBefore,
    );
    expect(await followerCount()).to.equal(0);
  });

  it('blocks an actor named by @user@host through WebFinger: a fresh signed fetch, and only the Block is sent', async () => {
    const remote = await FedifyPeer.start({
      host: '127.0.0.2',
      authorizedFetch: true,
      actors: { carol: {} },
    });
    try {
      const blocked = await block(remote.handleOf('carol'));

      expect(blocked.status, blocked.text).to.equal(201);
      expect(blocked.json.actor).to.equal(remote.actorIdOf('carol'));
      expect(remote.gets).to.deep.equal([
        `/.well-known/webfinger?resource=${encodeURIComponent(`acct:carol@${remote.host}`)}`,
        '/users/carol',
      ]);
      const received = await remote.waitFor(ofType('Block'));
      expect(received.path).to.equal('/users/carol/inbox');
      expect(received.body.object).to.equal(remote.actorIdOf('carol'));
      expect(await parseAs(received.body)).to.be.instanceOf(Block);
      expect(remote.received.map((r) => r.body.type)).to.deep.equal(['Block']);
      expect((await block(remote.actorIdOf('carol'))).status, 'the same actor by URL').to.equal(200);
    } finally {
      await remote.close();
    }
  });

  it('refuses a name that does not resolve to an actor: 400 on `actor`, nothing stored or sent', async () => {
    for (const actor of [peer.handleOf('nobody'), peer.actorIdOf('nobody'), `${peer.url}/inbox`]) {
      const refused = expectProblem(await block(actor), 400, 'invalid_request');
      expect(refused.errors[0].path, actor).to.equal('actor');
    }

    expect((await listBlocks()).json.total).to.equal(0);
    expect(peer.received).to.deep.equal([]);
  });

  it('unblocks: 200 {id, actor}, an Undo of the Block reaches the actor, and the block is gone from the list', async () => {
    await followed();
    const blocked = await block(peer.actorId);
    await peer.waitFor(ofType('Block'));

    const unblocked = await api.send('DELETE', `/users/alice/blocks/${blocked.json.id}`, undefined, {
      token: alice,
    });

    expect(unblocked.status, unblocked.text).to.equal(200);
    expect(unblocked.json).to.deep.equal({ id: blocked.json.id, actor: peer.actorId });
    const undo = await peer.waitFor(ofType('Undo'));
    expect(undo.httpSignedBy).to.equal(`${aliceActor}#main-key`);
    expect(undo.body.object).to.deep.equal({
      id: `${aliceActor}#blocks/${blocked.json.id}`,
      type: 'Block',
      actor: aliceActor,
      object: peer.actorId,
    });
    const parsed = await parseAs(undo.body);
    expect(parsed).to.be.instanceOf(Undo);
    expect(await (parsed as Undo).getObject()).to.be.instanceOf(Block);
    const list = await listBlocks();
    expect(list.json.total).to.equal(0);
    expectProblem(
      await api.send('DELETE', `/users/alice/blocks/${blocked.json.id}`, undefined, { token: alice }),
      404,
      'not_found',
    );
  });

  it('lists the blocks to the user alone, newest first, never stored by a shared cache', async () => {
    await followed();
    const blocked = await block(peer.actorId);

    const list = await listBlocks();

    expect(list.status).to.equal(200);
    expect(list.headers.get('cache-control')).to.equal('private, no-store');
    expect(list.json).to.deep.equal({ items: [blocked.json], total: 1, next: null, prev: null });
    expectProblem(
      await api.get('/users/alice/blocks', { headers: { accept: JSON_ACCEPT } }),
      401,
      'unauthenticated',
    );
    const carol = await registerUser(server.url, 'carol');
    expectProblem(await listBlocks(carol), 403, 'forbidden');
    expectProblem(await block(peer.actorId, carol), 403, 'forbidden');
    const browser = await api.get('/users/alice/blocks', { headers: { accept: BROWSER_ACCEPT } });
    expect(browser.status).to.equal(303);
    expect(browser.headers.get('location')).to.equal('/login?next=%2Fusers%2Falice%2Fblocks');
  });

  it('refuses to block themself, another user of this server or a malformed name: 400 on `actor`, nothing sent', async () => {
    await registerUser(server.url, 'carol');
    const host = new URL(server.url).host;

    for (const actor of [aliceActor, `@alice@${host}`, `${server.url}/users/carol`, `@carol@${host}`, 'x y'])
      expect(expectProblem(await block(actor), 400, 'invalid_request').errors[0].path, actor).to.equal(
        'actor',
      );

    expect((await listBlocks()).json.total).to.equal(0);
    expect(peer.received).to.deep.equal([]);
  });

  it('counts each block and unblock towards FOLLOWER_ACTIONS_PER_USER: beyond it, 429 with Retry-After', async () => {
    await followed();
    for (let n = 0; n < FOLLOWER_ACTIONS / 2; n++) {
      const blocked = await block(peer.actorId);
      expect(blocked.status).to.equal(201);
      await api.send('DELETE', `/users/alice/blocks/${blocked.json.id}`, undefined, { token: alice });
      await followed();
    }

    const refused = expectProblem(await block(peer.actorId), 429, 'rate_limited');

    expect(refused.detail).to.match(/Try again later/);
    expect(Number((await block(peer.actorId)).headers.get('retry-after'))).to.be.within(1, 3600);
    expect(await followerCount(), 'nothing written').to.equal(1);
  });

  it('takes a Block of alice from the actor: it follows her no more, and nothing is sent back', async () => {
    await followed();
    const sent = peer.received.length;

    const response = await peer.send(`${server.url}/users/alice/inbox`, {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${peer.actorId}#blocks/1`,
      type: 'Block',
      actor: peer.actorId,
      object: aliceActor,
    });

    expect(response.status).to.equal(202);
    expect(await followerCount()).to.equal(0);
    expect(peer.received.length).to.equal(sent);
    for (const type of ['Reject', 'Accept', 'Move'])
      expect(
        (
          await peer.send(`${server.url}/inbox`, {
            '@context': 'https://www.w3.org/ns/activitystreams',
            id: `${peer.actorId}#${type}`,
            type,
            actor: peer.actorId,
            object: aliceActor,
            target: peer.actorIdOf('new'),
          })
        ).status,
        type,
      ).to.equal(202);
  });
});
