import { expect } from 'chai';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { openMemoryPersistence } from '../../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { RateLimiterBudget } from '../../../../src/adapters/throttle/rate-limiter-budget.js';
import type { Job } from '../../../../src/application/ports/job-queue.js';
import type {
  ResolutionRefusal,
  ResolvedActor,
} from '../../../../src/application/services/actor-resolution.js';
import { BlockActor } from '../../../../src/application/use-cases/federation/blocks/block-actor.js';
import { ListActorBlocks } from '../../../../src/application/use-cases/federation/blocks/list-actor-blocks.js';
import { UnblockActor } from '../../../../src/application/use-cases/federation/blocks/unblock-actor.js';
import { Urls } from '../../../../src/domain/activity-streams.js';
import { actorNameText, type ActorName } from '../../../../src/domain/actor-name.js';
import { err, ok, type Result } from '../../../../src/domain/result.js';
import type { TokenClaims } from '../../../../src/domain/token.js';
import type { Username } from '../../../../src/domain/user.js';
import { aFollower, anAcceptJob, aUser, aUsername, T0 } from '../../../support/builders.js';
import { FixedClock, SequentialIds } from '../../../support/fixed-clock.js';

const L2 = 'https://l2.example';
const ALICE = `${L2}/users/alice`;
const BOB = 'https://peer.example/users/bob';
const FOLLOWER_ACTIONS = 3;

const claims = (username: string, scoped = false): TokenClaims => ({
  sub: aUsername(username),
  username: aUsername(username),
  l2_server: L2,
  iss: L2,
  iat: 0,
  exp: 2 ** 31,
  jti: `jti-${username}`,
  ...(scoped ? { l1_server: 'https://l1.example' as never, sid: 'jti' } : {}),
});

/** Actor resolution as the test scripts it: by the name's text; it records every name it was asked. */
class ScriptedResolution {
  readonly asked: string[] = [];
  readonly answers = new Map<string, Result<ResolvedActor, ResolutionRefusal>>();

  async resolve(_asker: Username, name: ActorName, path: string) {
    const text = actorNameText(name);
    this.asked.push(text);
    return (
      this.answers.get(text) ??
      err({ type: 'invalid_request' as const, path, message: 'No actor answers at that name.' })
    );
  }

  actor(name: string, id: string, inbox = `${id}/inbox`): void {
    this.answers.set(name, ok({ id, inbox, sharedInbox: null, alsoKnownAs: [], movedTo: null, local: null }));
  }
}

async function setUp() {
  const store = openMemoryPersistence();
  for (const name of ['alice', 'carol']) await store.users.create(aUser({ username: aUsername(name) }));
  const resolution = new ScriptedResolution();
  resolution.actor(BOB, BOB);
  resolution.actor('@bob@peer.example', BOB);
  const budget = new RateLimiterBudget(
    new RateLimiterMemory({ keyPrefix: 'follower-actions', points: FOLLOWER_ACTIONS, duration: 3600 }),
  );
  const signal = { count: 0, jobsQueued: () => void signal.count++ };
  const clock = new FixedClock(T0);
  const urls = Urls.of(L2);
  const ids = new SequentialIds();
  const block = new BlockActor(store.users, store.actorBlocks, resolution, budget, signal, clock, ids, urls);
  const unblock = new UnblockActor(store.users, store.actorBlocks, budget, signal, clock, urls);
  const list = new ListActorBlocks(store.users, store.actorBlocks);
  const queued = async (): Promise<Record<string, unknown>[]> => {
    const jobs: Job[] = await store.jobs.claim({
      now: T0,
      leaseMs: 1000,
      limit: 100,
      leaseId: `l${Math.random()}`,
    });
    for (const job of jobs) await store.jobs.complete(job);
    return jobs.map((j) => {
      const payload = j.payload as { inbox: string; document: Record<string, unknown> };
      return { inbox: payload.inbox, ...payload.document };
    });
  };
  const blockAs = (actor: string, asker = claims('alice'), username = 'alice') =>
    block.execute({ asker, username, actor });
  return { store, resolution, signal, block: blockAs, unblock, list, queued };
}

describe('BlockActor, UnblockActor and ListActorBlocks', () => {
  it('blocks an actor who does not follow: resolved afresh, the Block queued to its inbox', async () => {
    const { block, queued, resolution, signal } = await setUp();

    const result = await block(BOB);

    expect(result).to.deep.equal(
      ok({
        outcome: 'created',
        block: { id: 'id-1', username: 'alice', actor: BOB, inbox: `${BOB}/inbox`, createdAt: T0 },
      }),
    );
    expect(resolution.asked).to.deep.equal([BOB]);
    expect(await queued()).to.deep.equal([
      {
        inbox: `${BOB}/inbox`,
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${ALICE}#blocks/id-1`,
        type: 'Block',
        actor: ALICE,
        object: BOB,
      },
    ]);
    expect(signal.count).to.equal(1);
  });

  it('blocks a follower by its id without resolving it: the follow ends, a Reject of it then the Block queued', async () => {
    const { block, queued, resolution, store } = await setUp();
    const follower = aFollower({
      actor: 'https://f.example/users/f',
      inbox: 'https://f.example/users/f/inbox',
      followId: 'https://f.example/follows/1',
    });
    await store.followers.add(follower, anAcceptJob(follower), T0);
    await queued();

    const result = await block(follower.actor);

    expect(result.ok && result.value.outcome).to.equal('created');
    expect(resolution.asked).to.deep.equal([]);
    expect(await store.followers.count({ username: aUsername('alice') })).to.equal(0);
    const [reject, blocked] = [...(await queued()), ...(await queued())];
    expect(reject).to.deep.equal({
      inbox: follower.inbox,
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${ALICE}#rejects/id-1`,
      type: 'Reject',
      actor: ALICE,
      object: { id: follower.followId, type: 'Follow', actor: follower.actor, object: ALICE },
    });
    expect(blocked?.type).to.equal('Block');
  });

  it('answers an actor already blocked with that block, queuing nothing and spending nothing', async () => {
    const { block, queued } = await setUp();
    const first = await block(BOB);
    await queued();

    for (let n = 0; n < FOLLOWER_ACTIONS; n++)
      expect(await block(BOB)).to.deep.equal(first.ok ? ok({ ...first.value, outcome: 'exists' }) : first);

    expect(await queued()).to.deep.equal([]);
  });

  it('resolves a handle and answers exists for an actor blocked by its URL', async () => {
    const { block, resolution } = await setUp();
    await block(BOB);

    const again = await block('@bob@peer.example');

    expect(again.ok && again.value.outcome).to.equal('exists');
    expect(resolution.asked).to.deep.equal([BOB, '@bob@peer.example']);
  });

  it('refuses themself, a user of this server, a malformed or unresolvable name: 400 on `actor`, nothing written', async () => {
    const { block, queued, resolution } = await setUp();
    resolution.actor('@elsewhere@peer.example', ALICE, `${ALICE}/inbox`);
    const refused = async (actor: string) => {
      const result = await block(actor);
      expect(result.ok, actor).to.equal(false);
      if (result.ok) return '';
      expect(result.error.type, actor).to.equal('invalid_request');
      return result.error.type === 'invalid_request' ? `${result.error.path}: ${result.error.message}` : '';
    };

    expect(await refused(ALICE)).to.equal('actor: You cannot block yourself.');
    expect(await refused('@Alice@l2.example')).to.equal('actor: You cannot block yourself.');
    expect(await refused(`${L2}/users/carol`)).to.match(/^actor: Users of this server/);
    expect(await refused('@carol@l2.example')).to.match(/^actor: Users of this server/);
    expect(await refused(`${L2}/assets/x`)).to.equal('actor: That is no actor of this server.');
    expect(await refused('not a name')).to.match(/^actor: /);
    expect(await refused('https://gone.example/users/x')).to.equal('actor: No actor answers at that name.');
    expect(await refused('@elsewhere@peer.example')).to.equal('actor: You cannot block yourself.');
    expect(await queued()).to.deep.equal([]);
  });

  it('refuses an actor whose inbox is on another server', async () => {
    const { block, resolution } = await setUp();
    resolution.actor(
      'https://odd.example/users/o',
      'https://odd.example/users/o',
      'https://victim.example/inbox',
    );

    const result = await block('https://odd.example/users/o');

    expect(result.ok ? null : result.error.type).to.equal('invalid_request');
  });

  it('lets only the user themself block: another user or a scoped token is refused, and an unknown user is 404', async () => {
    const { block } = await setUp();

    expect(await block(BOB, claims('carol'))).to.deep.equal(err({ type: 'forbidden', reason: 'not_yours' }));
    expect(await block(BOB, claims('alice', true))).to.deep.equal(
      err({ type: 'forbidden', reason: 'scoped_token' }),
    );
    expect(await block(BOB, claims('alice'), 'nobody')).to.deep.equal(err({ type: 'not_found' }));
  });

  it('counts blocks and unblocks towards the follower actions budget, after the cheap refusals', async () => {
    const { block, unblock } = await setUp();
    await block(ALICE);
    await unblock.execute({ asker: claims('alice'), username: 'alice', id: 'unknown' });
    const first = await block(BOB);
    await unblock.execute({
      asker: claims('alice'),
      username: 'alice',
      id: first.ok ? first.value.block.id : '',
    });
    await block('@bob@peer.example');

    const over = await block('https://other.example/users/o');

    expect(over.ok ? null : over.error.type).to.equal('rate_limited');
  });

  it('unblocks: the block removed and an Undo of the Block it sent queued; unknown or another user’s → 404', async () => {
    const { block, unblock, list, queued } = await setUp();
    const made = await block(BOB);
    await queued();
    const id = made.ok ? made.value.block.id : '';

    expect(await unblock.execute({ asker: claims('carol'), username: 'carol', id })).to.deep.equal(
      err({ type: 'not_found' }),
    );
    const result = await unblock.execute({ asker: claims('alice'), username: 'alice', id });

    expect(result.ok && result.value.actor).to.equal(BOB);
    expect(await queued()).to.deep.equal([
      {
        inbox: `${BOB}/inbox`,
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${ALICE}#blocks/${id}/undo`,
        type: 'Undo',
        actor: ALICE,
        object: { id: `${ALICE}#blocks/${id}`, type: 'Block', actor: ALICE, object: BOB },
      },
    ]);
    expect(await unblock.execute({ asker: claims('alice'), username: 'alice', id })).to.deep.equal(
      err({ type: 'not_found' }),
    );
    const page = await list.execute({ asker: claims('alice'), username: 'alice', page: { limit: 20 } });
    expect(page.ok && page.value.total).to.equal(0);
  });

  it('lists the user’s blocks newest first, to the user alone', async () => {
    const { block, list, resolution } = await setUp();
    resolution.actor('https://two.example/users/t', 'https://two.example/users/t');
    await block(BOB);
    await block('https://two.example/users/t');

    const page = await list.execute({ asker: claims('alice'), username: 'alice', page: { limit: 20 } });

    expect(page.ok && page.value.items.map((b) => b.actor)).to.deep.equal([
      'https://two.example/users/t',
      BOB,
    ]);
    expect(
      await list.execute({ asker: claims('carol'), username: 'alice', page: { limit: 20 } }),
    ).to.deep.equal(err({ type: 'forbidden', reason: 'not_yours' }));
  });
});
