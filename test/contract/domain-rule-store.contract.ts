import { expect } from 'chai';
import type { NewJob } from '../../src/application/ports/job-queue.js';
import { candidateRuleKeys, hostKey, parseRuleHost, type RuleHost } from '../../src/domain/domain-rules.js';
import type { Follower } from '../../src/domain/follower.js';
import { activityDeliveryJob, documentDeliveryJob, profileUpdateJob } from '../../src/domain/jobs.js';
import { aFollower, anAcceptJob, aUsername, later, MINUTE, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

const host = (name: string): RuleHost => {
  const parsed = parseRuleHost(name, 'l2.example');
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

const on = (hostname: string, n = 1): Follower =>
  aFollower({
    actor: `https://${hostname}/users/u${n}`,
    inbox: `https://${hostname}/users/u${n}/inbox`,
    sharedInbox: `https://${hostname}/inbox`,
    followId: `https://${hostname}/follows/${n}`,
  });

export function domainRuleStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: DomainRuleStore`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    const follow = (follower: Follower) => store().followers.add(follower, anAcceptJob(follower), T0);
    const followersOf = async (username = alice) =>
      (await store().followers.listOlder({ username }, null, 100)).map((e) => e.value.actor).sort();
    const pendingJobs = async () =>
      (await store().queueAdministration.list({ kind: null, limit: 1000 }, T0)).filter(
        (job) => job.state === 'pending',
      );

    it('lists no rule in a new store, and none covers any host', async () => {
      expect(await store().domainRules.list()).to.deep.equal([]);
      expect(await store().domainRules.covering(candidateRuleKeys(hostKey('a.example')))).to.deep.equal({
        block: false,
        allow: false,
      });
    });

    it('adds and removes each kind of rule once, saying whether it changed anything', async () => {
      const rules = store().domainRules;
      expect((await rules.block(host('bad.example'), T0)).added).to.equal(true);
      expect((await rules.block(host('bad.example'), later(MINUTE))).added).to.equal(false);
      expect(await rules.allow(host('good.example'), later(MINUTE))).to.equal(true);
      expect(await rules.allow(host('good.example'), later(2 * MINUTE))).to.equal(false);
      expect(await rules.allow(host('bad.example'), later(3 * MINUTE))).to.equal(true);

      expect(await rules.list()).to.deep.equal([
        { kind: 'block', host: 'bad.example', createdAt: T0 },
        { kind: 'allow', host: 'good.example', createdAt: later(MINUTE) },
        { kind: 'allow', host: 'bad.example', createdAt: later(3 * MINUTE) },
      ]);

      expect(await rules.unblock(host('bad.example'))).to.equal(true);
      expect(await rules.unblock(host('bad.example'))).to.equal(false);
      expect(await rules.disallow(host('good.example'))).to.equal(true);
      expect(await rules.disallow(host('good.example'))).to.equal(false);
      expect(await rules.list()).to.deep.equal([
        { kind: 'allow', host: 'bad.example', createdAt: later(3 * MINUTE) },
      ]);
    });

    it('finds the rules that cover a host through its candidate keys: a name and its subdomains, an address alone', async () => {
      const rules = store().domainRules;
      await rules.block(host('example.com'), T0);
      await rules.allow(host('social.example.com'), T0);
      await rules.block(host('10.0.0.1'), T0);
      const covering = (hostname: string) => rules.covering(candidateRuleKeys(hostKey(hostname)));

      expect(await covering('example.com')).to.deep.equal({ block: true, allow: false });
      expect(await covering('a.social.example.com')).to.deep.equal({ block: true, allow: true });
      expect(await covering('notexample.com')).to.deep.equal({ block: false, allow: false });
      expect(await covering('example.com.evil')).to.deep.equal({ block: false, allow: false });
      expect(await covering('10.0.0.1')).to.deep.equal({ block: true, allow: false });
      expect(await covering('10.0.0.10')).to.deep.equal({ block: false, allow: false });
    });

    it("removes, in the block's write, every user's followers on the domain and its subdomains, and no one else", async () => {
      const kept = [on('notexample.com'), on('example.com.evil'), on('other.example')];
      const gone = [on('example.com'), on('a.example.com', 2), on('b.a.example.com', 3)];
      for (const f of [...kept, ...gone]) await follow(f);
      await follow({ ...on('social.example.com', 4), username: bob });

      const outcome = await store().domainRules.block(host('example.com'), T0);

      expect(outcome).to.deep.equal({ added: true, followersRemoved: 4, jobsDropped: 4 });
      expect(await followersOf()).to.deep.equal(kept.map((f) => f.actor).sort());
      expect(await store().followers.count({ username: alice })).to.equal(3);
      expect(await store().followers.count({ username: bob })).to.equal(0);
    });

    it('judges a follower by the canonical host of its actor, however the peer spelled it', async () => {
      await follow(on('SOCIAL.Example.COM.'));
      expect((await store().domainRules.block(host('example.com'), T0)).followersRemoved).to.equal(1);
      expect(await followersOf()).to.deep.equal([]);
    });

    it('removes the followers of an address only on that address', async () => {
      for (const f of [on('10.0.0.1'), on('10.0.0.1:8443', 2), on('10.0.0.10', 3)]) await follow(f);

      expect((await store().domainRules.block(host('10.0.0.1'), T0)).followersRemoved).to.equal(2);
      expect(await followersOf()).to.deep.equal(['https://10.0.0.10/users/u3']);
    });

    it('drops the pending and leased federation jobs of covered hosts, and keeps revocation notices and abandoned jobs', async () => {
      const jobs: NewJob[] = [
        activityDeliveryJob(1, 'https://a.example.com/inbox'),
        documentDeliveryJob({ signer: alice, inbox: 'https://example.com:8443/inbox', document: {} }),
        profileUpdateJob(alice, 'https://b.example.com/users/x/inbox'),
        activityDeliveryJob(1, 'https://notexample.com/inbox'),
        { kind: 'revocation_notice', payload: {}, lane: 'https://example.com' },
      ];
      await store().jobs.enqueue(jobs, T0);
      await store().jobs.enqueue([activityDeliveryJob(2, 'https://c.example.com/inbox')], T0);
      // Every lane's first job leased by a worker (claimed, still running): a block drops those too.
      const leased = await store().jobs.claim({ now: T0, leaseMs: MINUTE, limit: 100, leaseId: 'worker' });
      expect(leased.length).to.be.greaterThan(0);

      const outcome = await store().domainRules.block(host('example.com'), T0);

      expect(outcome.jobsDropped).to.equal(4);
      expect((await pendingJobs()).map((j) => j.lane).sort()).to.deep.equal([
        'https://example.com',
        'https://notexample.com',
      ]);
    });

    it('keeps an abandoned job of a covered host (an operator decides on those)', async () => {
      await store().jobs.enqueue([activityDeliveryJob(1, 'https://example.com/inbox')], T0);
      const [job] = await store().jobs.claim({ now: T0, leaseMs: MINUTE, limit: 1, leaseId: 'w' });
      await store().jobs.abandon(job!, 'gone');

      expect((await store().domainRules.block(host('example.com'), T0)).jobsDropped).to.equal(0);
      expect((await store().queueAdministration.stats()).abandoned).to.equal(1);
    });

    it('shuts out a follower whose host a block covers: nothing is stored, no Accept is queued', async () => {
      await store().domainRules.block(host('example.com'), T0);
      const follower = on('social.example.com');

      expect(await follow(follower)).to.equal('shut_out');

      expect(await followersOf()).to.deep.equal([]);
      expect(await pendingJobs()).to.deep.equal([]);
      expect(await follow(on('example.org'))).to.equal('added');
    });

    it('does not shut out a follower an allow rule alone covers, or one whose block was removed', async () => {
      await store().domainRules.allow(host('example.com'), T0);
      await store().domainRules.block(host('example.net'), T0);
      await store().domainRules.unblock(host('example.net'));

      expect(await follow(on('example.com'))).to.equal('added');
      expect(await follow(on('example.net', 2))).to.equal('added');
    });

    it('blocks many hosts in one write, counting those added and those already blocked', async () => {
      await store().domainRules.block(host('a.example'), T0);
      for (const f of [on('a.example'), on('b.example', 2), on('c.example', 3)]) await follow(f);

      const outcome = await store().domainRules.blockMany(
        [host('a.example'), host('b.example'), host('c.example'), host('b.example')],
        later(MINUTE),
      );

      expect(outcome).to.deep.equal({ added: 2, already: 1, followersRemoved: 2, jobsDropped: 2 });
      expect(await followersOf()).to.deep.equal([]);
      expect((await store().domainRules.list()).map((r) => r.host)).to.deep.equal([
        'a.example',
        'b.example',
        'c.example',
      ]);
    });

    it('lists and counts only the followers an allowlist scope covers', async () => {
      const inside = [on('example.com'), on('a.example.com', 2), on('10.0.0.1', 3)];
      const outside = [on('notexample.com', 4), on('example.org', 5)];
      for (const f of [...inside, ...outside]) await follow(f);
      const scope = { allowKeys: [hostKey('10.0.0.1'), hostKey('example.com')].sort() };

      expect(await store().followers.count({ username: alice, scope })).to.equal(3);
      const listed = await store().followers.listOlder({ username: alice, scope }, null, 2);
      expect(listed.map((e) => e.value.actor)).to.deep.equal([inside[2]!.actor, inside[1]!.actor]);
      const rest = await store().followers.listOlder({ username: alice, scope }, listed[1]!.position, 10);
      expect(rest.map((e) => e.value.actor)).to.deep.equal([inside[0]!.actor]);
      const newer = await store().followers.listNewer({ username: alice, scope }, 0, 10);
      expect(newer.map((e) => e.value.actor)).to.deep.equal(inside.map((f) => f.actor));
      expect(await store().followers.count({ username: alice, scope: { allowKeys: [] } })).to.equal(0);
      expect(await store().followers.count({ username: alice, scope: null })).to.equal(5);
    });
  });
}
