// The inbox and the operator's domain rules (API.md §4.3): a server L2 does not federate with is refused first —
// before the inbox's owner is looked up, the signature read or anything fetched or stored.
import { expect } from 'chai';
import { openMemoryPersistence } from '../../../../src/adapters/persistence/memory/open-memory-persistence.js';
import type { FederationClient } from '../../../../src/application/ports/federation-client.js';
import type {
  SignatureVerdict,
  SignedRequest,
} from '../../../../src/application/ports/signature-verifier.js';
import { FederationPolicy } from '../../../../src/application/services/federation-policy.js';
import {
  ReceiveActivity,
  refusalReason,
} from '../../../../src/application/use-cases/federation/receive-activity.js';
import { Urls } from '../../../../src/domain/activity-streams.js';
import { parseRuleHost, type FederationMode, type RuleHost } from '../../../../src/domain/domain-rules.js';
import { aUser, aUsername } from '../../../support/builders.js';
import { FixedClock, SequentialIds } from '../../../support/fixed-clock.js';
import { ScriptedFederation } from '../../../support/use-case-kit.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { RateLimiterBudget } from '../../../../src/adapters/throttle/rate-limiter-budget.js';

const BOB = 'https://social.bad.example/users/bob';
const CAROL = 'https://good.example/users/carol';
const NOW = new Date('2026-11-22T10:00:00.000Z');

const host = (name: string): RuleHost => {
  const parsed = parseRuleHost(name, 'l2.example');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};
const budget = () =>
  new RateLimiterBudget(new RateLimiterMemory({ keyPrefix: 'follows', points: 100, duration: 3600 }));
const followOf = (actor: string, user = 'alice') => ({
  id: `${actor}/follows/1`,
  type: 'Follow',
  actor,
  object: `https://l2.example/users/${user}`,
});

async function setUp(mode: FederationMode = 'blocklist') {
  const store = openMemoryPersistence();
  await store.users.create(aUser({ username: aUsername('alice') }));
  const federation = new ScriptedFederation();
  for (const actor of [BOB, CAROL])
    federation.actors.set(actor, { id: actor, inbox: `${actor}/inbox`, sharedInbox: null });
  const fetched: string[] = [];
  const hooks = { beforeFetch: async () => {} };
  const client = Object.create(federation) as FederationClient;
  client.fetchActor = async (id: string) => {
    fetched.push(id);
    await hooks.beforeFetch();
    return federation.fetchActor(id);
  };
  const verified: string[] = [];
  const key = { id: null as string | null };
  const verifier = {
    verify: async (_request: SignedRequest, actor: string): Promise<SignatureVerdict> => {
      verified.push(actor);
      return { ok: true, keyId: `${actor}#main-key`, owner: actor };
    },
    keyIdOf: () => key.id,
  };
  const clock = new FixedClock(NOW);
  const policy = new FederationPolicy(mode, store.domainRules, 'https://l2.example', clock);
  const receive = new ReceiveActivity(
    store.users,
    store.followers,
    store.followRequests,
    store.actorBlocks,
    store.jobs,
    verifier,
    client,
    { jobsQueued: () => {} },
    clock,
    new SequentialIds(),
    Urls.of('https://l2.example'),
    { perActor: budget(), perOrigin: budget(), pendingAcceptsPerHost: 100 },
    policy,
  );
  const request = {
    method: 'POST',
    target: '/inbox',
    headers: {},
    body: Buffer.from('{}'),
    clientAddress: '192.0.2.7',
  };
  const post = (body: unknown, inboxOwner: string | null = null) =>
    receive.execute({ inboxOwner, body, request });
  const followers = async () =>
    (await store.followers.listOlder({ username: aUsername('alice') }, null, 10)).map((e) => e.value.actor);
  return { store, post, fetched, verified, key, hooks, followers };
}

describe('ReceiveActivity and domain rules', () => {
  it('refuses an actor on a blocked domain (or a subdomain) first: no owner lookup, no signature check, no fetch, nothing stored', async () => {
    const inbox = await setUp();
    await inbox.store.domainRules.block(host('bad.example'), NOW);

    for (const owner of [null, 'alice', 'nobody']) {
      const answer = await inbox.post(followOf(BOB), owner);
      expect(answer).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
      if (!answer.ok) expect(refusalReason(answer.error)).to.equal('domain_blocked');
    }

    expect(inbox.verified).to.deep.equal([]);
    expect(inbox.fetched).to.deep.equal([]);
    expect(await inbox.followers()).to.deep.equal([]);
    expect(await inbox.post(followOf(CAROL))).to.deep.equal({ ok: true, value: 'followed' });
  });

  it("refuses a request whose signature's key is on a blocked domain, whatever actor it names", async () => {
    const inbox = await setUp();
    await inbox.store.domainRules.block(host('bad.example'), NOW);
    inbox.key.id = 'https://keys.bad.example/key#1';

    expect(await inbox.post(followOf(CAROL))).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
    expect(inbox.verified).to.deep.equal([]);
  });

  it('refuses the Follow, storing nothing, when the block is written while the actor is being fetched', async () => {
    const inbox = await setUp();
    inbox.hooks.beforeFetch = async () => {
      await inbox.store.domainRules.block(host('bad.example'), NOW);
    };

    expect(await inbox.post(followOf(BOB))).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
    expect(await inbox.followers()).to.deep.equal([]);
    expect(await inbox.store.queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
  });

  it('in allowlist mode takes activities only from allowed domains that are not blocked', async () => {
    const inbox = await setUp('allowlist');

    expect(await inbox.post(followOf(CAROL))).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
    await inbox.store.domainRules.allow(host('good.example'), NOW);
    await inbox.store.domainRules.allow(host('bad.example'), NOW);
    await inbox.store.domainRules.block(host('social.bad.example'), NOW);

    expect(await inbox.post(followOf(CAROL))).to.deep.equal({ ok: true, value: 'followed' });
    expect(await inbox.post(followOf(BOB))).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
  });
});
