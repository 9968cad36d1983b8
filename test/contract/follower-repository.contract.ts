import { expect } from 'chai';
import type { Job } from '../../src/application/ports/job-queue.js';
import type { Follower } from '../../src/domain/follower.js';
import { aFollower, anAcceptJob, aUsername, later, MINUTE, T0 } from '../support/builders.js';
import { useStore, walkNewer, walkOlder, type PersistenceHarness } from './harness.js';

export function followerRepositoryContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: FollowerRepository`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    const follow = (follower: Follower, at = T0) =>
      store().followers.add(follower, anAcceptJob(follower), at);
    const claimAll = (): Promise<Job[]> =>
      store().jobs.claim({
        now: later(DAY_AHEAD),
        leaseMs: MINUTE,
        limit: 100,
        leaseId: `lease-${++claims}`,
      });
    let claims = 0;
    const DAY_AHEAD = 24 * 60 * MINUTE;
    const listed = async (username = alice) =>
      (await store().followers.listOlder({ username }, null, 100)).map((e) => e.value);

    it('counts 0 followers for a user nobody follows, and lists none', async () => {
      expect(await store().followers.count({ username: alice })).to.equal(0);
      expect(await listed()).to.deep.equal([]);
    });

    it('stores a follower and queues its Accept in the same write', async () => {
      const follower = aFollower();

      expect(await follow(follower, later(MINUTE))).to.equal('added');

      expect(await listed()).to.deep.equal([follower]);
      const jobs = await claimAll();
      expect(jobs.map((j) => [j.kind, j.payload, j.lane, j.queuedAt])).to.deep.equal([
        ['document_delivery', anAcceptJob(follower).payload, new URL(follower.inbox).origin, later(MINUTE)],
      ]);
    });

    it("counts and lists each user's own followers only, newest follow first", async () => {
      const [a1, a2, a3] = [aFollower(), aFollower(), aFollower()];
      const b1 = aFollower({ username: bob, actor: a1.actor });
      for (const f of [a1, b1, a2, a3]) await follow(f);

      expect(await store().followers.count({ username: alice })).to.equal(3);
      expect(await store().followers.count({ username: bob })).to.equal(1);
      expect(await store().followers.count({ username: aUsername('carol') })).to.equal(0);
      expect(await listed()).to.deep.equal([a3, a2, a1]);
      expect(await listed(bob)).to.deep.equal([b1]);
    });

    it('keeps a repeated follow in its place with the new addresses and Follow id, and replaces its waiting Accept', async () => {
      const [first, second] = [aFollower(), aFollower()];
      await follow(first);
      await follow(second);
      const again = {
        ...first,
        inbox: `${first.actor}/new-inbox`,
        sharedInbox: null,
        followId: 'https://x/f/2',
      };

      expect(await follow(again, later(MINUTE))).to.equal('updated');

      expect(await store().followers.count({ username: alice })).to.equal(2);
      expect(await listed()).to.deep.equal([second, { ...again, followedAt: first.followedAt }]);
      const accepts = await claimAll();
      expect(accepts.map((j) => j.payload)).to.have.deep.members([
        anAcceptJob(second).payload,
        anAcceptJob(again).payload,
      ]);
    });

    it('leaves one pending Accept, the last one, after 1,000 repeated follows of one user by one actor', async () => {
      const follower = aFollower();
      for (let n = 1; n <= 1000; n++)
        await follow({ ...follower, followId: `${follower.actor}/follows/${n}` }, later(n));

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
      const [accept] = await claimAll();
      expect(accept?.payload).to.deep.equal(
        anAcceptJob({ ...follower, followId: `${follower.actor}/follows/1000` }).payload,
      );
      expect(accept?.queuedAt).to.deep.equal(later(1000));
    });

    it('keeps an Accept waiting for each user the actor follows', async () => {
      const follower = aFollower();

      await follow(follower);
      await follow({ ...follower, username: bob });

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 2, abandoned: 0 });
    });

    it('queues a new Accept for a follow repeated after the last one was delivered', async () => {
      const follower = aFollower();
      await follow(follower);
      const [delivered] = await claimAll();
      expect(await store().jobs.complete(delivered as Job)).to.equal(true);

      await follow({ ...follower, followId: 'https://x/f/again' }, later(MINUTE));

      const [again] = await claimAll();
      expect(again?.payload).to.deep.equal(
        anAcceptJob({ ...follower, followId: 'https://x/f/again' }).payload,
      );
    });

    describe('with a cap on the Accepts waiting for one host', () => {
      const onHost = (host: string, name: string) =>
        aFollower({ actor: `https://${host}/users/${name}`, inbox: `https://${host}/users/${name}/inbox` });
      const capped = (follower: Follower, at = T0) =>
        store().followers.add(follower, anAcceptJob(follower), at, 2);

      it('writes nothing — neither follower nor Accept — once that many wait, and takes follows again when one left', async () => {
        const [a, b, c] = ['a', 'b', 'c'].map((name) => onHost('big.example', name)) as [
          Follower,
          Follower,
          Follower,
        ];
        expect(await capped(a)).to.equal('added');
        expect(await capped(b)).to.equal('added');

        expect(await capped(c)).to.equal('lane_full');

        expect(await listed()).to.deep.equal([b, a]);
        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 2, abandoned: 0 });
        expect(await capped(onHost('small.example', 'd')), 'another host has its own cap').to.equal('added');
        const delivered = (await claimAll()).find((j) => j.lane === 'https://big.example');
        expect(await store().jobs.complete(delivered as Job)).to.equal(true);
        expect(await capped(c)).to.equal('added');
      });

      it('still lets a repeated follow replace its own Accept when the host is at the cap', async () => {
        const [a, b] = ['a', 'b'].map((name) => onHost('big.example', name)) as [Follower, Follower];
        await capped(a);
        await capped(b);

        expect(await capped({ ...a, followId: 'https://big.example/follows/again' }, later(MINUTE))).to.equal(
          'updated',
        );

        // One job of a lane per claim: two claims take both.
        const accepts = [...(await claimAll()), ...(await claimAll())];
        expect(accepts.map((j) => j.payload)).to.have.deep.members([
          anAcceptJob(b).payload,
          anAcceptJob({ ...a, followId: 'https://big.example/follows/again' }).payload,
        ]);
      });
    });

    it('writes neither follower nor Accept when the Accept cannot be stored', async () => {
      const follower = aFollower();
      const broken = { kind: 'document_delivery', payload: { n: BigInt(1) }, lane: 'https://x.example' };

      let failed = false;
      try {
        await store().followers.add(follower, broken, T0);
      } catch {
        failed = true;
      }

      expect(failed).to.equal(true);
      expect(await store().followers.count({ username: alice })).to.equal(0);
      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
    });

    it('ends a follow named by user or by Follow id, only for its own actor', async () => {
      const [one, two] = [aFollower(), aFollower()];
      const bobs = aFollower({ username: bob, actor: one.actor, followId: 'https://x/f/b' });
      for (const f of [one, two, bobs]) await follow(f);

      expect(await store().followers.remove(two.actor, { username: bob })).to.equal(0);
      expect(await store().followers.remove(two.actor, { followId: one.followId! })).to.equal(0);
      expect(await store().followers.remove(one.actor, { username: alice })).to.equal(1);
      expect(await store().followers.remove(two.actor, { followId: two.followId! })).to.equal(1);
      expect(await store().followers.remove(two.actor, { followId: two.followId! })).to.equal(0);

      expect(await listed()).to.deep.equal([]);
      expect(await listed(bob)).to.deep.equal([bobs]);
    });

    it('ends every follow of a deleted actor', async () => {
      const gone = aFollower();
      const kept = aFollower();
      await follow(gone);
      await follow(kept);
      await follow(aFollower({ username: bob, actor: gone.actor }));

      expect(await store().followers.removeActor(gone.actor)).to.equal(2);

      expect(await listed()).to.deep.equal([kept]);
      expect(await store().followers.count({ username: bob })).to.equal(0);
    });

    it('walks every follower exactly once, page by page, in both directions', async () => {
      for (let i = 0; i < 7; i++) await follow(aFollower());
      await follow(aFollower({ username: bob }));
      const filter = { username: alice };

      const older = await walkOlder((before, limit) => store().followers.listOlder(filter, before, limit), 3);
      const newer = await walkNewer(
        (after, limit) => store().followers.listNewer(filter, after, limit),
        -1,
        2,
      );

      expect(older).to.have.length(7);
      expect(newer.map((e) => e.value)).to.deep.equal(older.map((e) => e.value).reverse());
      expect(new Set(older.map((e) => e.position)).size).to.equal(7);
    });
  });
}
