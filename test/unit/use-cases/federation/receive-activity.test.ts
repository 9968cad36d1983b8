import { expect } from 'chai';
import { openMemoryPersistence } from '../../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { SignatureVerdict } from '../../../../src/application/ports/signature-verifier.js';
import { ReceiveActivity } from '../../../../src/application/use-cases/federation/receive-activity.js';
import { Urls } from '../../../../src/domain/activity-streams.js';
import { EMPTY_PROFILE } from '../../../../src/domain/profile.js';
import { aUser, aUsername, MINUTE } from '../../../support/builders.js';
import { FixedClock, SequentialIds } from '../../../support/fixed-clock.js';
import { ScriptedFederation } from '../../../support/use-case-kit.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { RateLimiterBudget } from '../../../../src/adapters/throttle/rate-limiter-budget.js';

const BOB = 'https://peer.example/users/bob';
const FOLLOWS_PER_ACTOR = 5;
const FOLLOWS_PER_ORIGIN = 8;
const PENDING_ACCEPTS_PER_HOST = 3;

/** A budget of `points` per hour, counted in memory (the kit's budgets are the same limiter on another store). */
const budget = (points: number) =>
  new RateLimiterBudget(new RateLimiterMemory({ keyPrefix: 'follows', points, duration: 3600 }));
const request = {
  method: 'POST',
  target: '/inbox',
  headers: {},
  body: Buffer.from('{}'),
  clientAddress: '192.0.2.7',
};

/** The inbox on a memory store, with small limits unless a test names its own. */
async function setUp(
  limits: { perActor?: number; perOrigin?: number; pendingAcceptsPerHost?: number; locked?: boolean } = {},
) {
  const store = openMemoryPersistence();
  await store.users.create(
    aUser({
      username: aUsername('alice'),
      profile: { ...EMPTY_PROFILE, manuallyApprovesFollowers: limits.locked ?? false },
    }),
  );
  const federation = new ScriptedFederation();
  federation.actors.set(BOB, { id: BOB, inbox: `${BOB}/inbox`, sharedInbox: 'https://peer.example/inbox' });
  const verdict: { next: SignatureVerdict } = { next: { ok: true, keyId: `${BOB}#main-key`, owner: BOB } };
  const verifier = { verify: async () => verdict.next, keyIdOf: () => null };
  const signal = { count: 0, jobsQueued: () => void signal.count++ };
  const urls = Urls.of('https://l2.example');
  const receive = new ReceiveActivity(
    store.users,
    store.followers,
    store.followRequests,
    store.actorBlocks,
    store.jobs,
    verifier,
    federation,
    signal,
    new FixedClock(new Date('2026-11-22T10:00:00.000Z')),
    new SequentialIds(),
    urls,
    {
      perActor: budget(limits.perActor ?? FOLLOWS_PER_ACTOR),
      perOrigin: budget(limits.perOrigin ?? FOLLOWS_PER_ORIGIN),
      pendingAcceptsPerHost: limits.pendingAcceptsPerHost ?? PENDING_ACCEPTS_PER_HOST,
    },
    { federatesWith: async () => true, federatesWithRecently: async () => true },
  );
  const post = (body: unknown, inboxOwner: string | null = null) =>
    receive.execute({ inboxOwner, body, request });
  const follow = {
    id: `${BOB}/follows/1`,
    type: 'Follow',
    actor: BOB,
    object: 'https://l2.example/users/alice',
  };
  const followers = () => store.followers.count({ username: aUsername('alice') });
  const requests = async () =>
    (await store.followRequests.listOlder({ username: aUsername('alice') }, null, 10)).map((e) => e.value);
  const pending = async () => (await store.queueAdministration.stats()).pending;
  return { store, federation, verdict, signal, post, follow, followers, requests, pending };
}

describe('ReceiveActivity (the inbox)', () => {
  it('stores a follower of a local user with its Accept, and wakes the worker', async () => {
    const { post, follow, followers, store, signal } = await setUp();

    expect(await post(follow, 'alice')).to.deep.equal({ ok: true, value: 'followed' });

    expect(await followers()).to.equal(1);
    const [job] = await store.jobs.claim({
      now: new Date('2026-11-23'),
      leaseMs: MINUTE,
      limit: 5,
      leaseId: 'l',
    });
    expect(job?.kind).to.equal('document_delivery');
    expect(job?.payload).to.deep.include({ signer: 'alice', inbox: `${BOB}/inbox` });
    expect(signal.count).to.equal(1);
  });

  it('leaves one pending Accept, of the last Follow, after 1,000 repeated Follows of one user by one actor', async () => {
    const { post, follow, followers, store } = await setUp({ perActor: 1000, perOrigin: 1000 });

    for (let n = 1; n <= 1000; n++)
      expect(await post({ ...follow, id: `${BOB}/follows/${n}` })).to.deep.equal({
        ok: true,
        value: 'followed',
      });

    expect(await followers()).to.equal(1);
    const waiting = await store.jobs.claim({
      now: new Date('2026-11-23'),
      leaseMs: MINUTE,
      limit: 5,
      leaseId: 'l',
    });
    expect(waiting).to.have.length(1);
    expect(await store.queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
    const accept = (waiting[0]?.payload as { document: { object: { id: string } } }).document;
    expect(accept.object.id).to.equal(`${BOB}/follows/1000`);
  });

  describe('limits', () => {
    const CAROL = 'https://peer.example/users/carol';
    const followOf = (actor: string, n: number, user = 'alice') => ({
      id: `${actor}/follows/${n}`,
      type: 'Follow',
      actor,
      object: `https://l2.example/users/${user}`,
    });
    /** The inbox where the signature of each Follow verifies as its own actor's. */
    async function signedInbox(limits: Parameters<typeof setUp>[0]) {
      const kit = await setUp(limits);
      kit.federation.actors.set(CAROL, { id: CAROL, inbox: `${CAROL}/inbox`, sharedInbox: null });
      const post = (follow: ReturnType<typeof followOf>) => {
        kit.verdict.next = { ok: true, keyId: `${follow.actor}#main-key`, owner: follow.actor };
        return kit.post(follow);
      };
      return { ...kit, post };
    }

    it('refuses Follows beyond the budget of their actor, storing nothing and asking its server nothing', async () => {
      const { post, store, federation } = await signedInbox({ perActor: 2 });
      let fetches = 0;
      const fetchActor = federation.fetchActor.bind(federation);
      federation.fetchActor = (id) => (fetches++, fetchActor(id));
      await store.users.create(aUser({ username: aUsername('dave') }));
      await post(followOf(BOB, 1));
      await post(followOf(BOB, 2));

      const refused = await post(followOf(BOB, 3, 'dave'));

      expect(refused.ok).to.equal(false);
      expect(!refused.ok && refused.error).to.deep.include({ type: 'rate_limited', reason: 'actor_budget' });
      expect(
        !refused.ok && refused.error.type === 'rate_limited' && refused.error.retryAfterSeconds,
      ).to.be.within(1, 3600);
      expect(await store.followers.count({ username: aUsername('dave') })).to.equal(0);
      expect(fetches).to.equal(2);
    });

    it('refuses Follows beyond the budget of their origin, whichever of its actors sends them', async () => {
      const { post, store } = await signedInbox({ perActor: 10, perOrigin: 3 });
      await post(followOf(BOB, 1));
      await post(followOf(BOB, 2));
      await post(followOf(CAROL, 1));

      const refused = await post(followOf(CAROL, 2));

      expect(!refused.ok && refused.error).to.deep.include({ type: 'rate_limited', reason: 'origin_budget' });
      expect(await store.followers.count({ username: aUsername('alice') })).to.equal(2);
    });

    it('refuses a new follower, storing nothing, while its host has the cap of Accepts waiting', async () => {
      const { post, store } = await signedInbox({ pendingAcceptsPerHost: 1 });
      await post(followOf(BOB, 1));

      const refused = await post(followOf(CAROL, 1));

      expect(refused).to.deep.equal({
        ok: false,
        error: {
          type: 'rate_limited',
          reason: 'lane_full',
          message: 'Too many Accepts wait undelivered for your server: send the Follow again later.',
          retryAfterSeconds: 600,
        },
      });
      expect(await store.followers.count({ username: aUsername('alice') })).to.equal(1);
      expect(await post(followOf(BOB, 2)), 'a repeated Follow replaces its own Accept').to.deep.equal({
        ok: true,
        value: 'followed',
      });
    });

    it('spends no budget on a Follow of somebody who is not a local user', async () => {
      const { post } = await signedInbox({ perActor: 1 });

      for (let n = 0; n < 3; n++)
        expect(
          await post({ ...followOf(BOB, n), object: 'https://elsewhere.example/users/x' }),
        ).to.deep.equal({
          ok: true,
          value: 'ignored',
        });
      expect(await post(followOf(BOB, 9))).to.deep.equal({ ok: true, value: 'followed' });
    });
  });

  it('answers unavailable (the peer sends again) when the follower’s server cannot be asked now, invalid when it has no actor', async () => {
    const { post, follow, federation } = await setUp();
    federation.unavailable.add(BOB);
    const first = await post(follow);
    federation.unavailable.delete(BOB);
    federation.actors.delete(BOB);
    const second = await post(follow);

    expect(!first.ok && first.error.type).to.equal('unavailable');
    expect(!second.ok && second.error.type).to.equal('invalid_request');
  });

  it('refuses an inbox on another server than the follower, storing nothing', async () => {
    const { post, follow, followers, federation } = await setUp();
    federation.actors.set(BOB, { id: BOB, inbox: 'https://victim.example/inbox', sharedInbox: null });

    const result = await post(follow);

    expect(!result.ok && result.error.type).to.equal('invalid_request');
    expect(await followers()).to.equal(0);
  });

  it('refuses a verdict whose signer is not the actor, even if the verifier let it through', async () => {
    const { post, follow, followers, verdict } = await setUp();
    verdict.next = {
      ok: true,
      keyId: 'https://peer.example/users/carol#main-key',
      owner: 'https://peer.example/users/carol',
    };

    const result = await post(follow);

    expect(!result.ok && result.error.type).to.equal('unauthenticated');
    expect(await followers()).to.equal(0);
  });

  it('checks the shape and the user before the signature, and answers the verifier’s reason', async () => {
    const { post, follow, verdict } = await setUp();
    verdict.next = { ok: false, kind: 'refused', refusal: 'date', reason: 'Date is missing' };

    expect(await post([follow])).to.deep.include({ ok: false });
    expect(await post(follow, 'nobody')).to.deep.equal({ ok: false, error: { type: 'not_found' } });
    expect(await post(follow)).to.deep.equal({
      ok: false,
      error: { type: 'unauthenticated', refusal: 'date', message: 'Date is missing' },
    });
  });

  it('ends the follow on an Undo by embedded Follow or by its id, and a Delete of the actor removes it', async () => {
    const { post, follow, followers } = await setUp();
    await post(follow);
    expect(await post({ type: 'Undo', actor: BOB, object: follow })).to.deep.equal({
      ok: true,
      value: 'unfollowed',
    });
    await post(follow);
    expect(await post({ type: 'Undo', actor: BOB, object: follow.id })).to.deep.equal({
      ok: true,
      value: 'unfollowed',
    });
    await post(follow);
    expect(await post({ type: 'Delete', actor: BOB, object: 'https://peer.example/notes/1' })).to.deep.equal({
      ok: true,
      value: 'ignored',
    });
    expect(await followers()).to.equal(1);
    expect(await post({ type: 'Delete', actor: BOB, object: BOB })).to.deep.equal({
      ok: true,
      value: 'removed',
    });
    expect(await followers()).to.equal(0);
  });

  it('gives a disabled account no new follower, but its inbox still ends a follow', async () => {
    const { post, follow, followers, store } = await setUp();
    await post(follow);
    await store.users.disable(aUsername('alice'), [], new Date('2026-11-22T11:00:00.000Z'));

    expect(await post({ ...follow, id: `${BOB}/follows/2` }, 'alice')).to.deep.equal({
      ok: true,
      value: 'ignored',
    });
    expect(await post({ type: 'Undo', actor: BOB, object: follow }, 'alice')).to.deep.equal({
      ok: true,
      value: 'unfollowed',
    });
    expect(await followers()).to.equal(0);
  });

  describe('a locked account (manually_approves_followers)', () => {
    it('keeps a Follow as a request, sends nothing and stores no follower; a repeat keeps one request', async () => {
      const { post, follow, followers, requests, pending } = await setUp({ locked: true });

      expect(await post(follow, 'alice')).to.deep.equal({ ok: true, value: 'requested' });
      expect(await post({ ...follow, id: `${BOB}/follows/2` }, 'alice')).to.deep.equal({
        ok: true,
        value: 'requested',
      });

      expect(await followers()).to.equal(0);
      expect(await pending(), 'nothing queued').to.equal(0);
      const [request, ...more] = await requests();
      expect(more).to.deep.equal([]);
      expect(request).to.deep.include({
        username: 'alice',
        actor: BOB,
        inbox: `${BOB}/inbox`,
        sharedInbox: 'https://peer.example/inbox',
        followId: `${BOB}/follows/2`,
      });
    });

    it('accepts again, with an Accept, a Follow from an actor that already follows', async () => {
      const { post, follow, followers, requests, pending, store } = await setUp({ locked: true });
      await store.followers.add(
        {
          username: aUsername('alice'),
          actor: BOB,
          inbox: `${BOB}/inbox`,
          sharedInbox: null,
          followId: follow.id,
          followedAt: new Date('2026-11-01'),
        },
        {
          kind: 'document_delivery',
          payload: {},
          lane: 'https://peer.example',
          replaceKey: 'accept alice x',
        },
        new Date('2026-11-01'),
      );
      const before = await pending();

      expect(await post({ ...follow, id: `${BOB}/follows/again` }, 'alice')).to.deep.equal({
        ok: true,
        value: 'followed',
      });

      expect(await followers()).to.equal(1);
      expect(await requests()).to.deep.equal([]);
      expect(await pending()).to.equal(before + 1);
    });

    it('drops the request on an Undo of its Follow (embedded or by id) and on a Delete of the actor', async () => {
      const { post, follow, requests } = await setUp({ locked: true });
      await post(follow);
      expect(await post({ type: 'Undo', actor: BOB, object: follow })).to.deep.equal({
        ok: true,
        value: 'unfollowed',
      });
      expect(await requests()).to.deep.equal([]);
      await post(follow);
      expect(await post({ type: 'Undo', actor: BOB, object: follow.id })).to.deep.equal({
        ok: true,
        value: 'unfollowed',
      });
      expect(await requests()).to.deep.equal([]);
      await post(follow);
      expect(await post({ type: 'Delete', actor: BOB, object: BOB })).to.deep.equal({
        ok: true,
        value: 'removed',
      });
      expect(await requests()).to.deep.equal([]);
    });
  });
});
