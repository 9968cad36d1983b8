import { expect } from 'chai';
import type { FollowRequest } from '../../src/domain/follow-request.js';
import type { Follower } from '../../src/domain/follower.js';
import { acceptJob, rejectJob } from '../../src/domain/jobs.js';
import type { Username } from '../../src/domain/user.js';
import { aFollower, anAcceptJob, aUsername, later, MINUTE, T0 } from '../support/builders.js';
import { drainJobs, useStore, walkNewer, walkOlder, type PersistenceHarness } from './harness.js';

let counter = 0;

/** A waiting Follow of alice by an actor of its own server. */
function aRequest(overrides: Partial<FollowRequest> = {}): FollowRequest {
  const n = ++counter;
  const host = `asker${n}.example`;
  return {
    id: `request-${n}`,
    username: aUsername('alice'),
    actor: `https://${host}/users/someone`,
    inbox: `https://${host}/users/someone/inbox`,
    sharedInbox: `https://${host}/inbox`,
    followId: `https://${host}/follows/${n}`,
    requestedAt: T0,
    ...overrides,
  };
}

/** The decision's job as a use case makes it: it repeats the Follow id the store holds when it decides. */
const answer = (type: 'Accept' | 'Reject') => (request: FollowRequest) =>
  (type === 'Accept' ? acceptJob : rejectJob)(
    {
      signer: request.username,
      inbox: request.inbox,
      document: { type, actor: `https://l2.example/users/${request.username}`, object: request.followId },
    },
    request.actor,
  );

export function followRequestStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: FollowRequestStore`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    const listed = async (username: Username = alice) =>
      (await store().followRequests.listOlder({ username }, null, 100)).map((e) => e.value);
    const followers = async (username: Username = alice) =>
      (await store().followers.listOlder({ username }, null, 100)).map((e) => e.value);
    const jobs = () => drainJobs(store(), later(24 * 60 * MINUTE));

    it('lists and counts each user’s own requests, newest first, and finds one by id', async () => {
      const [a1, a2, a3] = [aRequest(), aRequest(), aRequest()];
      const b1 = aRequest({ username: bob, actor: a1.actor });
      for (const r of [a1, b1, a2, a3]) expect(await store().followRequests.add(r)).to.equal('added');

      expect(await listed()).to.deep.equal([a3, a2, a1]);
      expect(await listed(bob)).to.deep.equal([b1]);
      expect(await store().followRequests.count({ username: alice })).to.equal(3);
      expect(await store().followRequests.count({ username: aUsername('carol') })).to.equal(0);
      expect(await store().followRequests.find(alice, a2.id)).to.deep.equal(a2);
      expect(await store().followRequests.find(bob, a2.id), 'another user’s').to.equal(null);
      expect(await store().followRequests.find(alice, 'unknown')).to.equal(null);
      const older = await walkOlder((b, l) => store().followRequests.listOlder({ username: alice }, b, l), 2);
      expect(older.map((e) => e.value)).to.deep.equal([a3, a2, a1]);
      const newer = await walkNewer(
        (a, l) => store().followRequests.listNewer({ username: alice }, a, l),
        0,
        2,
      );
      expect(newer.map((e) => e.value)).to.deep.equal([a1, a2, a3]);
      expect(await jobs(), 'nothing is sent for a request').to.deep.equal([]);
    });

    it('keeps one request per actor: a repeat keeps its id, place and time and takes the new Follow id and inboxes', async () => {
      const [first, second] = [aRequest(), aRequest()];
      await store().followRequests.add(first);
      await store().followRequests.add(second);
      const again = {
        ...first,
        id: 'another-id',
        inbox: `${first.actor}/new-inbox`,
        sharedInbox: null,
        followId: `${first.actor}/follows/again`,
        requestedAt: later(MINUTE),
      };

      expect(await store().followRequests.add(again)).to.equal('updated');

      const renewed = { ...first, inbox: again.inbox, sharedInbox: null, followId: again.followId };
      expect(await listed()).to.deep.equal([second, renewed]);
      expect(await store().followRequests.count({ username: alice })).to.equal(2);
    });

    it('accepts in one write: the request gone, its actor a follower, the Accept of its latest Follow queued', async () => {
      const request = aRequest();
      await store().followRequests.add(request);
      await store().followRequests.add({ ...request, followId: `${request.actor}/follows/latest` });
      const latest = { ...request, followId: `${request.actor}/follows/latest` };

      const accepted = await store().followRequests.accept(
        alice,
        request.id,
        answer('Accept'),
        later(MINUTE),
      );

      expect(accepted).to.deep.equal(latest);
      expect(await listed()).to.deep.equal([]);
      const follower: Follower = {
        username: alice,
        actor: request.actor,
        inbox: request.inbox,
        sharedInbox: request.sharedInbox,
        followId: latest.followId,
        followedAt: later(MINUTE),
      };
      expect(await followers()).to.deep.equal([follower]);
      expect(await store().followers.count({ username: alice })).to.equal(1);
      const queued = await jobs();
      expect(queued.map((j) => [j.kind, j.payload, j.lane])).to.deep.equal([
        ['document_delivery', answer('Accept')(latest).payload, new URL(request.inbox).origin],
      ]);
      expect(
        await store().followRequests.accept(alice, request.id, answer('Accept'), T0),
        'decided',
      ).to.equal(null);
    });

    it('accepts an actor that already follows without moving it: one follower, in its place', async () => {
      const follower = aFollower();
      await store().followers.add(follower, anAcceptJob(follower), T0);
      const request = aRequest({ actor: follower.actor, inbox: follower.inbox });
      await store().followRequests.add(request);

      await store().followRequests.accept(alice, request.id, answer('Accept'), later(MINUTE));

      expect((await followers()).map((f) => [f.actor, f.followedAt])).to.deep.equal([[follower.actor, T0]]);
    });

    it('rejects in one write: the request gone, the Reject queued, nobody following; the actor may ask again', async () => {
      const request = aRequest();
      await store().followRequests.add(request);

      expect(
        await store().followRequests.reject(bob, request.id, answer('Reject'), T0),
        'another user’s',
      ).to.equal(null);
      expect(await store().followRequests.reject(alice, request.id, answer('Reject'), T0)).to.deep.equal(
        request,
      );

      expect(await listed()).to.deep.equal([]);
      expect(await followers()).to.deep.equal([]);
      expect((await jobs()).map((j) => j.payload)).to.deep.equal([answer('Reject')(request).payload]);
      expect(
        await store().followRequests.reject(alice, request.id, answer('Reject'), T0),
        'decided',
      ).to.equal(null);
      expect(
        await store().followRequests.accept(alice, request.id, answer('Accept'), T0),
        'decided',
      ).to.equal(null);
      expect(await store().followRequests.add({ ...request, id: 'new' })).to.equal('added');
    });

    it('accepts every request of a user, oldest first, in batches of the limit, with one Accept each', async () => {
      const requests = Array.from({ length: 5 }, () => aRequest());
      for (const r of requests) await store().followRequests.add(r);
      const bobs = aRequest({ username: bob });
      await store().followRequests.add(bobs);

      expect(await store().followRequests.acceptAll(alice, answer('Accept'), T0, 2)).to.equal(2);
      expect((await listed()).map((r) => r.id)).to.deep.equal(
        requests
          .slice(2)
          .reverse()
          .map((r) => r.id),
      );
      expect(await store().followRequests.acceptAll(alice, answer('Accept'), T0, 2)).to.equal(2);
      expect(await store().followRequests.acceptAll(alice, answer('Accept'), T0, 2)).to.equal(1);
      expect(await store().followRequests.acceptAll(alice, answer('Accept'), T0, 2)).to.equal(0);

      expect(await store().followers.count({ username: alice })).to.equal(5);
      expect(await listed(bob), 'another user’s stay').to.deep.equal([bobs]);
      const queued = await jobs();
      expect(queued.map((j) => j.payload)).to.have.deep.members(
        requests.map((r) => answer('Accept')(r).payload),
      );
    });

    it('removes a request by its Follow id or its user (an Undo), and every request of a deleted actor', async () => {
      const request = aRequest();
      const other = aRequest({ username: bob, actor: request.actor, followId: `${request.actor}/follows/b` });
      const third = aRequest();
      for (const r of [request, other, third]) await store().followRequests.add(r);

      expect(
        await store().followRequests.remove(request.actor, { followId: 'https://nope.example/f' }),
      ).to.equal(0);
      expect(await store().followRequests.remove(third.actor, { followId: request.followId! })).to.equal(0);
      expect(await store().followRequests.remove(request.actor, { followId: request.followId! })).to.equal(1);
      expect(await store().followRequests.remove(third.actor, { username: alice })).to.equal(1);
      expect(await listed()).to.deep.equal([]);
      expect(await listed(bob)).to.deep.equal([other]);
      await store().followRequests.add(request);

      expect(await store().followRequests.removeActor(request.actor)).to.equal(2);

      expect(await listed()).to.deep.equal([]);
      expect(await listed(bob)).to.deep.equal([]);
    });
  });

  describe(`${name}: FollowerRepository removal with a notice`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');

    it('finds a follower by actor, and removes it while queuing the Reject in one write', async () => {
      const follower = aFollower();
      await store().followers.add(follower, anAcceptJob(follower), T0);
      await drainJobs(store(), later(MINUTE));
      expect(await store().followers.find(alice, follower.actor)).to.deep.equal(follower);
      expect(await store().followers.find(aUsername('bob'), follower.actor)).to.equal(null);

      const removed = await store().followers.removeWithNotice(
        alice,
        follower.actor,
        (f) =>
          rejectJob(
            { signer: alice, inbox: f.inbox, document: { type: 'Reject', object: f.followId } },
            f.actor,
          ),
        later(MINUTE),
      );

      expect(removed).to.deep.equal(follower);
      expect(await store().followers.count({ username: alice })).to.equal(0);
      expect(await store().followers.find(alice, follower.actor)).to.equal(null);
      const queued = await drainJobs(store(), later(2 * MINUTE));
      expect(queued.map((j) => [j.payload, j.lane])).to.deep.equal([
        [
          { signer: alice, inbox: follower.inbox, document: { type: 'Reject', object: follower.followId } },
          new URL(follower.inbox).origin,
        ],
      ]);
      expect(
        await store().followers.removeWithNotice(
          alice,
          follower.actor,
          () => {
            throw new Error('no notice for no follower');
          },
          T0,
        ),
      ).to.equal(null);
    });
  });
}
