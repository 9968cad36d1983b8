import { expect } from 'chai';
import type { Job, NewJob } from '../../src/application/ports/job-queue.js';
import type { ActorBlock } from '../../src/domain/actor-block.js';
import type { FollowRequest } from '../../src/domain/follow-request.js';
import { documentDeliveryJob } from '../../src/domain/jobs.js';
import type { Username } from '../../src/domain/user.js';
import { aFollower, anAcceptJob, aUsername, L2_SERVER, later, MINUTE, T0 } from '../support/builders.js';
import { drainJobs, useStore, walkNewer, walkOlder, type PersistenceHarness } from './harness.js';

let blocks = 0;

/** A block by alice of an actor on its own host, unless overridden. */
function aBlock(overrides: Partial<ActorBlock> = {}): ActorBlock {
  const n = ++blocks;
  return {
    id: `block-${n}`,
    username: aUsername('alice'),
    actor: `https://blocked${n}.example/users/someone`,
    inbox: `https://blocked${n}.example/users/someone/inbox`,
    createdAt: T0,
    ...overrides,
  };
}

/** A Follow of alice waiting for her decision, by an actor on its own host. */
function aRequest(overrides: Partial<FollowRequest> = {}): FollowRequest {
  const n = ++blocks;
  return {
    id: `request-${n}`,
    username: aUsername('alice'),
    actor: `https://asking${n}.example/users/someone`,
    inbox: `https://asking${n}.example/users/someone/inbox`,
    sharedInbox: `https://asking${n}.example/inbox`,
    followId: `https://asking${n}.example/follows/${n}`,
    requestedAt: T0,
    ...overrides,
  };
}

const sent = (block: ActorBlock, type: string): NewJob =>
  documentDeliveryJob({
    signer: block.username,
    inbox: block.inbox,
    document: { type, actor: `${L2_SERVER}/users/${block.username}`, object: block.actor },
  });

const jobsOf = (block: ActorBlock) => ({ reject: sent(block, 'Reject'), block: sent(block, 'Block') });

export function actorBlockStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: ActorBlockStore`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');
    const DAY_AHEAD = 24 * 60 * MINUTE;
    const queued = async (): Promise<Job[]> => drainJobs(store(), later(DAY_AHEAD));
    const types = (jobs: readonly Job[]) =>
      jobs.map((job) => (job.payload as { document: { type: string } }).document.type);
    const listed = async (username: Username = alice) =>
      (await store().actorBlocks.listOlder({ username }, null, 100)).map((e) => e.value);

    it('lists no block for a user who blocked nobody', async () => {
      expect(await store().actorBlocks.count({ username: alice })).to.equal(0);
      expect(await listed()).to.deep.equal([]);
      expect(await store().actorBlocks.find(alice, 'https://x.example/users/a')).to.equal(null);
    });

    it('stores a block of an actor who does not follow, and queues the Block alone', async () => {
      const block = aBlock();

      expect(await store().actorBlocks.block(block, jobsOf(block), later(MINUTE))).to.deep.equal({
        outcome: 'created',
        block,
      });

      expect(await listed()).to.deep.equal([block]);
      expect(await store().actorBlocks.find(alice, block.actor)).to.deep.equal(block);
      expect(await store().actorBlocks.findById(alice, block.id)).to.deep.equal(block);
      const jobs = await queued();
      expect(types(jobs)).to.deep.equal(['Block']);
      expect(jobs[0]?.queuedAt).to.deep.equal(later(MINUTE));
      expect(jobs[0]?.lane).to.equal(new URL(block.inbox).origin);
    });

    it('ends the follow of a blocked follower in the same write, queuing the Reject before the Block', async () => {
      const follower = aFollower();
      const other = aFollower();
      await store().followers.add(follower, anAcceptJob(follower), T0);
      await store().followers.add(other, anAcceptJob(other), T0);
      await store().followers.add(
        { ...follower, username: bob },
        anAcceptJob({ ...follower, username: bob }),
        T0,
      );
      await queued();
      expect(await store().actorBlocks.followOf(alice, follower.actor)).to.deep.equal({
        actor: follower.actor,
        inbox: follower.inbox,
        followId: follower.followId,
      });
      const block = aBlock({ actor: follower.actor, inbox: follower.inbox });

      await store().actorBlocks.block(block, jobsOf(block), T0);

      expect(await store().followers.count({ username: alice })).to.equal(1);
      expect(
        (await store().followers.listOlder({ username: alice }, null, 10)).map((e) => e.value),
      ).to.deep.equal([other]);
      expect(await store().followers.count({ username: bob }), "bob's follower stays").to.equal(1);
      expect(await store().actorBlocks.followOf(alice, follower.actor)).to.equal(null);
      // One job of a lane per claim, in queue order.
      expect(types(await queued())).to.deep.equal(['Reject', 'Block']);
    });

    it('finds the waiting follow request of an actor who does not follow, as the follow a block would end', async () => {
      const request = aRequest();
      await store().followRequests.add(request);
      await store().followRequests.add({ ...request, id: 'bobs', username: bob, followId: null });

      expect(await store().actorBlocks.followOf(alice, request.actor)).to.deep.equal({
        actor: request.actor,
        inbox: request.inbox,
        followId: request.followId,
      });
      expect(await store().actorBlocks.followOf(aUsername('carol'), request.actor)).to.equal(null);
    });

    it('drops the blocked actor’s waiting request in the same write, queuing the Reject before the Block', async () => {
      const request = aRequest();
      const other = aRequest();
      const bobs = { ...request, id: 'bobs', username: bob };
      for (const r of [request, other, bobs]) await store().followRequests.add(r);
      const block = aBlock({ actor: request.actor, inbox: request.inbox });

      await store().actorBlocks.block(block, jobsOf(block), T0);

      expect(
        (await store().followRequests.listOlder({ username: alice }, null, 10)).map((e) => e.value),
      ).to.deep.equal([other]);
      expect(await store().followRequests.count({ username: bob }), "bob's request stays").to.equal(1);
      expect(await store().actorBlocks.followOf(alice, request.actor)).to.equal(null);
      expect(types(await queued())).to.deep.equal(['Reject', 'Block']);
    });

    it('keeps the waiting request, writing nothing, when a job of its block cannot be stored', async () => {
      const request = aRequest();
      await store().followRequests.add(request);
      const block = aBlock({ actor: request.actor, inbox: request.inbox });
      const broken = { kind: 'document_delivery', payload: { n: BigInt(1) }, lane: 'https://x.example' };

      let failed = false;
      try {
        await store().actorBlocks.block(block, { reject: broken, block: sent(block, 'Block') }, T0);
      } catch {
        failed = true;
      }

      expect(failed).to.equal(true);
      expect(await listed()).to.deep.equal([]);
      expect(await store().followRequests.find(alice, request.id)).to.deep.equal(request);
      expect(await queued()).to.deep.equal([]);
    });

    it('answers an actor already blocked with the block stored before, writing nothing', async () => {
      const block = aBlock();
      await store().actorBlocks.block(block, jobsOf(block), T0);
      await queued();
      const follower = aFollower({ actor: block.actor, inbox: block.inbox });
      await store().followers.add(follower, anAcceptJob(follower), T0);
      await queued();
      const again = { ...block, id: 'another-id', createdAt: later(MINUTE) };

      expect(await store().actorBlocks.block(again, jobsOf(again), later(MINUTE))).to.deep.equal({
        outcome: 'exists',
        block,
      });

      expect(await listed()).to.deep.equal([block]);
      expect(await store().followers.count({ username: alice }), 'no follower removed').to.equal(1);
      expect(await queued()).to.deep.equal([]);
    });

    it('writes neither block nor job, and keeps the follower, when a job cannot be stored', async () => {
      const follower = aFollower();
      await store().followers.add(follower, anAcceptJob(follower), T0);
      await queued();
      const block = aBlock({ actor: follower.actor, inbox: follower.inbox });
      const broken = { kind: 'document_delivery', payload: { n: BigInt(1) }, lane: 'https://x.example' };

      let failed = false;
      try {
        await store().actorBlocks.block(block, { reject: sent(block, 'Reject'), block: broken }, T0);
      } catch {
        failed = true;
      }

      expect(failed).to.equal(true);
      expect(await listed()).to.deep.equal([]);
      expect(await store().followers.count({ username: alice })).to.equal(1);
      expect(await queued()).to.deep.equal([]);
    });

    it("keeps each user's blocks apart: one user's block id is unknown to another", async () => {
      const alices = aBlock();
      const bobs = aBlock({ username: bob, actor: alices.actor });
      await store().actorBlocks.block(alices, jobsOf(alices), T0);
      expect((await store().actorBlocks.block(bobs, jobsOf(bobs), T0)).outcome).to.equal('created');

      expect(await store().actorBlocks.findById(bob, alices.id)).to.equal(null);
      expect(await store().actorBlocks.count({ username: alice })).to.equal(1);
      expect(await listed(bob)).to.deep.equal([bobs]);
      expect(await store().actorBlocks.unblock(bob, alices.id, sent(alices, 'Undo'), T0)).to.equal(false);
      expect(await listed()).to.deep.equal([alices]);
    });

    it('removes a block and queues its Undo in one write; an unknown block writes nothing', async () => {
      const block = aBlock();
      await store().actorBlocks.block(block, jobsOf(block), T0);
      await queued();

      expect(await store().actorBlocks.unblock(alice, block.id, sent(block, 'Undo'), later(MINUTE))).to.equal(
        true,
      );

      expect(await listed()).to.deep.equal([]);
      expect(await store().actorBlocks.find(alice, block.actor)).to.equal(null);
      expect(types(await queued())).to.deep.equal(['Undo']);
      expect(await store().actorBlocks.unblock(alice, block.id, sent(block, 'Undo'), later(MINUTE))).to.equal(
        false,
      );
      expect(await queued()).to.deep.equal([]);
    });

    it('lists blocks newest first, page by page both ways, and blocks the actor again after an unblock', async () => {
      const made = [aBlock(), aBlock(), aBlock(), aBlock(), aBlock()];
      for (const block of made) await store().actorBlocks.block(block, jobsOf(block), T0);
      await store().actorBlocks.block(aBlock({ username: bob }), jobsOf(aBlock()), T0);

      const older = await walkOlder(
        (before, limit) => store().actorBlocks.listOlder({ username: alice }, before, limit),
        2,
      );
      expect(older.map((e) => e.value)).to.deep.equal([...made].reverse());
      const newer = await walkNewer(
        (after, limit) => store().actorBlocks.listNewer({ username: alice }, after, limit),
        0,
        2,
      );
      expect(newer.map((e) => e.value)).to.deep.equal(made);

      const first = made[0]!;
      await store().actorBlocks.unblock(alice, first.id, sent(first, 'Undo'), T0);
      const again = { ...first, id: 'again' };
      expect((await store().actorBlocks.block(again, jobsOf(again), T0)).outcome).to.equal('created');
      expect((await listed())[0]).to.deep.equal(again);
    });
  });
}
