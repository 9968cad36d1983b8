import { expect } from 'chai';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { openMemoryPersistence } from '../../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { RateLimiterBudget } from '../../../../src/adapters/throttle/rate-limiter-budget.js';
import { ReceiveActivity } from '../../../../src/application/use-cases/federation/receive-activity.js';
import { Urls } from '../../../../src/domain/activity-streams.js';
import { aFollower, anAcceptJob, aUser, aUsername, T0 } from '../../../support/builders.js';
import { FixedClock, SequentialIds } from '../../../support/fixed-clock.js';
import { ScriptedFederation } from '../../../support/use-case-kit.js';

const ALICE = 'https://l2.example/users/alice';
const BOB = 'https://peer.example/users/bob';

/** The inbox on a memory store where bob, already following alice and carol, signs every activity. */
async function setUp() {
  const store = openMemoryPersistence();
  for (const name of ['alice', 'carol']) {
    await store.users.create(aUser({ username: aUsername(name) }));
    const follower = aFollower({ username: aUsername(name), actor: BOB, inbox: `${BOB}/inbox` });
    await store.followers.add(follower, anAcceptJob(follower), T0);
  }
  const jobsBefore = (await store.queueAdministration.stats()).pending;
  const budget = () =>
    new RateLimiterBudget(new RateLimiterMemory({ keyPrefix: 'f', points: 10, duration: 60 }));
  const federation = new ScriptedFederation();
  const receive = new ReceiveActivity(
    store.users,
    store.followers,
    store.followRequests,
    store.actorBlocks,
    store.jobs,
    { verify: async () => ({ ok: true, keyId: `${BOB}#main-key`, owner: BOB }), keyIdOf: () => null },
    federation,
    { jobsQueued: () => {} },
    new FixedClock(T0),
    new SequentialIds(),
    Urls.of('https://l2.example'),
    { perActor: budget(), perOrigin: budget(), pendingAcceptsPerHost: 10 },
    { federatesWith: async () => true, federatesWithRecently: async () => true },
  );
  const post = (activity: Record<string, unknown>) =>
    receive.execute({
      inboxOwner: 'alice',
      body: { id: `${BOB}#activity`, actor: BOB, ...activity },
      request: {
        method: 'POST',
        target: '/users/alice/inbox',
        headers: {},
        body: Buffer.from('{}'),
        clientAddress: '192.0.2.7',
      },
    });
  const following = async (name: string) => store.followers.count({ username: aUsername(name) });
  const queuedSince = async () => (await store.queueAdministration.stats()).pending - jobsBefore;
  return { post, following, queuedSince, federation };
}

describe('ReceiveActivity: a Block of a local user', () => {
  it('ends the blocking actor’s follow of that user alone, and sends nothing back', async () => {
    const { post, following, queuedSince } = await setUp();

    expect(await post({ type: 'Block', object: ALICE })).to.deep.equal({ ok: true, value: 'unfollowed' });

    expect(await following('alice')).to.equal(0);
    expect(await following('carol')).to.equal(1);
    expect(await queuedSince()).to.equal(0);
  });

  it('takes a Block of someone else, or of an embedded object, as the object it names', async () => {
    const { post, following } = await setUp();

    expect(await post({ type: 'Block', object: 'https://elsewhere.example/users/x' })).to.deep.equal({
      ok: true,
      value: 'ignored',
    });
    expect(await post({ type: 'Block', object: { id: ALICE, type: 'Person' } })).to.deep.equal({
      ok: true,
      value: 'unfollowed',
    });
    expect(await following('alice')).to.equal(0);
  });

  it('accepts and ignores Reject, Accept and Move: L2 users follow no one', async () => {
    const { post, following, queuedSince, federation } = await setUp();

    for (const type of ['Reject', 'Accept', 'Move'])
      expect(
        await post({ type, object: ALICE, target: 'https://new.example/users/bob' }),
        type,
      ).to.deep.equal({
        ok: true,
        value: 'ignored',
      });

    expect(await following('alice')).to.equal(1);
    expect(await queuedSince()).to.equal(0);
    expect(federation.delivered).to.deep.equal([]);
  });
});
