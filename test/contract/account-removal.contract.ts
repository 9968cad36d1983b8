import { expect } from 'chai';
import type { AccountRemovalPlan } from '../../src/application/ports/account-removal.js';
import type { Job } from '../../src/application/ports/job-queue.js';
import type { Asset, AssetName } from '../../src/domain/asset.js';
import type { Follower } from '../../src/domain/follower.js';
import type { Revocation } from '../../src/domain/revocation.js';
import { profileOf, type User, type Username } from '../../src/domain/user.js';
import { appendWithRetry, registerAssets } from '../support/activity-writers.js';
import {
  aFollower,
  anAcceptJob,
  anActivity,
  anAsset,
  anAssetName,
  anL1Server,
  aRevocation,
  aUser,
  aUsername,
  DAY,
  L2_SERVER,
  later,
  MINUTE,
  T0,
} from '../support/builders.js';
import { drainJobs, useStore, type PersistenceHarness, rejection } from './harness.js';

/** The signed Delete of an actor, as the use case would prepare it. */
const actorDeleteOf = (username: Username): Record<string, unknown> => ({
  '@context': 'https://www.w3.org/ns/activitystreams',
  id: `${L2_SERVER}/users/${username}#delete`,
  type: 'Delete',
  actor: `${L2_SERVER}/users/${username}`,
  object: `${L2_SERVER}/users/${username}`,
  to: ['https://www.w3.org/ns/activitystreams#Public'],
  signature: { type: 'RsaSignature2017', signatureValue: `sig-of-${username}` },
});

export function accountRemovalContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: AccountRemoval`, () => {
    const store = useStore(harness);
    const alice = aUsername('alice');
    const bob = aUsername('bob');
    const carol = aUsername('carol');
    const l1a = anL1Server('https://l1a.example');
    const l1b = anL1Server('https://l1b.example');
    /** When the account is removed; every planned Delete is published then. */
    const now = later(10 * MINUTE);
    const drainAt = later(DAY);

    let users: Record<'alice' | 'bob' | 'carol', User>;

    /** alice has three followers on two hosts (two share an inbox), carol one, bob none. */
    const followers = (): Follower[] => [
      aFollower({
        username: alice,
        actor: 'https://a.example/users/1',
        inbox: 'https://a.example/users/1/inbox',
        sharedInbox: 'https://a.example/inbox',
      }),
      aFollower({
        username: alice,
        actor: 'https://b.example/u/3',
        inbox: 'https://b.example/u/3/inbox',
        sharedInbox: null,
      }),
      aFollower({
        username: alice,
        actor: 'https://a.example/users/2',
        inbox: 'https://a.example/users/2/inbox',
        sharedInbox: 'https://a.example/inbox',
      }),
      aFollower({
        username: carol,
        actor: 'https://c.example/u/4',
        inbox: 'https://c.example/u/4/in',
        sharedInbox: null,
      }),
    ];

    beforeEach(async () => {
      users = {
        alice: aUser({ username: alice }),
        bob: aUser({ username: bob }),
        carol: aUser({ username: carol }),
      };
      for (const user of Object.values(users)) await store().users.create(user);
      for (const f of followers()) await store().followers.add(f, anAcceptJob(f), T0);
      await drainJobs(store(), drainAt);
    });

    /** Registers the assets (a Create each) and drains the jobs that queued. */
    async function given(...assets: Asset[]): Promise<Asset[]> {
      await registerAssets(store().activities, assets);
      await drainJobs(store(), drainAt);
      return assets;
    }

    /** Deletes an asset of alice's through the log, as deleting one asset does, and drains its deliveries. */
    async function deleteAsset(assetName: AssetName): Promise<void> {
      const { outcome } = await appendWithRetry(store().activities, {
        kind: 'delete',
        name: assetName,
        deletedAt: later(MINUTE),
      });
      expect(outcome).to.equal('appended');
      await drainJobs(store(), drainAt);
    }

    /** The plan deleting `username` with a Delete of each named asset at consecutive idx from `firstIdx`. */
    async function planFor(
      username: Username,
      assetNames: readonly AssetName[] = [],
      options: { revocations?: readonly Revocation[]; firstIdx?: number } = {},
    ): Promise<AccountRemovalPlan> {
      const firstIdx = options.firstIdx ?? (await store().activities.nextIdx());
      return {
        username,
        revocations: options.revocations ?? [],
        assetDeletes: assetNames.map((assetName, i) => ({
          name: assetName,
          activity: anActivity({
            idx: firstIdx + i,
            type: 'Delete',
            actor: username,
            object: assetName,
            published: now,
          }),
        })),
        actorDelete: actorDeleteOf(username),
      };
    }

    const namesOf = (assets: readonly Asset[]): AssetName[] => assets.map((a) => a.name);

    /** Everything a removal writes, to compare before and after one that must write nothing. */
    async function snapshot(plan: AccountRemovalPlan): Promise<unknown> {
      return {
        user: await store().users.findByUsername(plan.username),
        profile: await store().users.findProfile(plan.username),
        users: await store().users.listOlder(null, 100),
        count: await store().users.count(),
        nextIdx: await store().activities.nextIdx(),
        activities: await store().activities.listOlder({}, null, 1000),
        assets: await store().assets.listOlder({}, null, 1000),
        assetCount: await store().assets.count({}),
        ownAssetCount: await store().assets.count({ owner: plan.username }),
        named: await Promise.all(plan.assetDeletes.map((d) => store().assets.findByName(d.name))),
        revoked: await Promise.all(
          plan.revocations.map((r) => store().revocations.isRevoked(r.record.tokenHash)),
        ),
        jobs: await store().queueAdministration.stats(),
      };
    }

    /** Asserts that `plan` is refused with `outcome` and that the store is as it was before. */
    async function expectRefused(plan: AccountRemovalPlan, outcome: string, label?: string): Promise<void> {
      const before = await snapshot(plan);

      expect(await store().accountRemoval.remove(plan, now), label).to.equal(outcome);

      expect(await snapshot(plan), label).to.deep.equal(before);
      expect(await drainJobs(store(), drainAt), label).to.deep.equal([]);
    }

    /** Scoped and unscoped revocations of alice's tokens. */
    const revocationsOfAlice = (): Revocation[] => [
      aRevocation({ username: alice }),
      aRevocation({ username: alice, sessionJti: 's1', l1Server: l1a }),
      aRevocation({ username: alice, sessionJti: 's1', l1Server: l1b }),
    ];

    describe('removed', () => {
      it('marks the user deleted at now: out of the count and the lists, its name still taken', async () => {
        expect(await store().accountRemoval.remove(await planFor(alice), now)).to.equal('removed');

        const deleted = { ...users.alice, deletedAt: now };
        expect(await store().users.findByUsername(alice)).to.deep.equal(deleted);
        expect(await store().users.findProfile(alice)).to.deep.equal(profileOf(deleted));
        expect(await store().users.count()).to.equal(2);
        const listed = await store().users.listOlder(null, 10);
        expect(listed.map((e) => e.value)).to.deep.equal([users.carol, users.bob].map(profileOf));
        expect((await store().users.listNewer(0, 10)).map((e) => e.value.username)).to.deep.equal([
          bob,
          carol,
        ]);
        expect(await store().users.create(aUser({ username: alice }))).to.equal('taken');
        expect(await store().users.findByUsername(alice)).to.deep.equal(deleted);
        expect(await store().users.findByUsername(bob)).to.deep.equal(users.bob);
      });

      it('records every revocation and queues a notice for each new one of a scoped token, at now', async () => {
        const known = aRevocation({ username: alice, sessionJti: 's0', l1Server: l1a });
        await store().revocations.revoke([known], T0);
        await drainJobs(store(), drainAt);
        const [session, scopedA, scopedB] = revocationsOfAlice() as [Revocation, Revocation, Revocation];
        const plan = await planFor(alice, [], { revocations: [session, scopedA, known, scopedB] });

        expect(await store().accountRemoval.remove(plan, now)).to.equal('removed');

        for (const r of plan.revocations)
          expect(await store().revocations.isRevoked(r.record.tokenHash)).to.equal(true);
        const notices = (await drainJobs(store(), drainAt))
          .filter((j) => j.kind === 'revocation_notice')
          .map((j) => ({ payload: j.payload, queuedAt: j.queuedAt }));
        expect(notices).to.have.deep.members([
          { payload: JSON.parse(JSON.stringify(scopedA.notice)), queuedAt: now },
          { payload: JSON.parse(JSON.stringify(scopedB.notice)), queuedAt: now },
        ]);
      });

      it('appends a Delete of each live asset at consecutive idx from the next one and marks each deleted', async () => {
        const [a1, b1, a2, a3] = await given(
          anAsset({ owner: alice }),
          anAsset({ owner: bob }),
          anAsset({ owner: alice }),
          anAsset({ owner: alice }),
        );
        await deleteAsset(a2!.name);
        const next = await store().activities.nextIdx();
        const plan = await planFor(alice, namesOf([a3!, a1!]));

        expect(await store().accountRemoval.remove(plan, now)).to.equal('removed');

        expect(await store().activities.nextIdx()).to.equal(next + 2);
        for (const { activity } of plan.assetDeletes)
          expect(await store().activities.get(activity.idx)).to.deep.equal(activity);
        const all = await store().activities.listNewer({}, -1, 1000);
        expect(all.map((e) => e.position)).to.deep.equal(Array.from({ length: next + 2 }, (_, i) => i));
        expect(await store().activities.count({ actor: alice })).to.equal(3 + 1 + 2);
        expect(await store().assets.findByName(a1!.name)).to.deep.equal({ ...a1, deletedAt: now });
        expect(await store().assets.findByName(a3!.name)).to.deep.equal({ ...a3, deletedAt: now });
        expect(await store().assets.findByName(a2!.name)).to.deep.equal({ ...a2, deletedAt: later(MINUTE) });
        expect(await store().assets.findByName(b1!.name)).to.deep.equal(b1);
        expect(await store().assets.count({ owner: alice })).to.equal(0);
        expect(await store().assets.count({})).to.equal(1);
        expect((await store().assets.listOlder({}, null, 10)).map((e) => e.value)).to.deep.equal([b1]);
      });

      it('queues the asset Deletes to each distinct follower inbox, then the actor Delete to each, and no more', async () => {
        const [a1, a2] = await given(anAsset({ owner: alice }), anAsset({ owner: alice }));
        const plan = await planFor(alice, namesOf([a1!, a2!]));
        const [first, second] = plan.assetDeletes.map((d) => d.activity.idx) as [number, number];

        expect(await store().accountRemoval.remove(plan, now)).to.equal('removed');

        // Within a lane jobs are claimed in queue order, so each lane shows the order they were queued in.
        const byLane = new Map<string | null, unknown[]>();
        for (const job of await drainJobs(store(), drainAt)) {
          byLane.set(job.lane, [...(byLane.get(job.lane) ?? []), summary(job)]);
        }
        const actorDelete = JSON.parse(JSON.stringify(plan.actorDelete)) as unknown;
        const expected = (inbox: string) => [
          { kind: 'activity_delivery', payload: { idx: first, inbox }, queuedAt: now },
          { kind: 'activity_delivery', payload: { idx: second, inbox }, queuedAt: now },
          {
            kind: 'document_delivery',
            payload: { signer: alice, inbox, document: actorDelete },
            queuedAt: now,
          },
        ];
        expect(Object.fromEntries(byLane)).to.deep.equal({
          'https://a.example': expected('https://a.example/inbox'),
          'https://b.example': expected('https://b.example/u/3/inbox'),
        });
      });

      it('queues nothing for a user nobody follows who has no token and no asset', async () => {
        expect(await store().accountRemoval.remove(await planFor(bob), now)).to.equal('removed');

        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
        expect((await store().users.findByUsername(bob))?.deletedAt).to.deep.equal(now);
      });

      it('removes one of two concurrent removals of a user; the other answers gone', async () => {
        const assets = await given(anAsset({ owner: alice }), anAsset({ owner: alice }));
        const plan = await planFor(alice, namesOf(assets), { revocations: revocationsOfAlice() });
        const next = await store().activities.nextIdx();

        const outcomes = await Promise.all([
          store().accountRemoval.remove(plan, now),
          store().accountRemoval.remove(plan, later(MINUTE, now)),
        ]);

        expect([...outcomes].sort()).to.deep.equal(['gone', 'removed']);
        const removedAt = outcomes[0] === 'removed' ? now : later(MINUTE, now);
        expect((await store().users.findByUsername(alice))?.deletedAt).to.deep.equal(removedAt);
        expect(await store().activities.nextIdx()).to.equal(next + 2);
        const jobs = await drainJobs(store(), drainAt);
        expect(jobs.filter((j) => j.kind === 'revocation_notice')).to.have.length(2);
        expect(jobs.filter((j) => j.kind === 'activity_delivery')).to.have.length(4);
        expect(jobs.filter((j) => j.kind === 'document_delivery')).to.have.length(2);
      });
    });

    describe('refused: nothing is written', () => {
      it('idx_taken when another writer appended after the plan was built; rebuilt, it removes', async () => {
        const assets = await given(anAsset({ owner: alice }));
        const plan = await planFor(alice, namesOf(assets), { revocations: revocationsOfAlice() });
        await given(anAsset({ owner: bob }));

        await expectRefused(plan, 'idx_taken');

        const rebuilt = await planFor(alice, namesOf(assets), { revocations: plan.revocations });
        expect(await store().accountRemoval.remove(rebuilt, now)).to.equal('removed');
      });

      it('idx_taken when the Deletes do not start at the next idx or leave a gap', async () => {
        const assets = await given(anAsset({ owner: alice }), anAsset({ owner: alice }));
        const next = await store().activities.nextIdx();
        const revocations = revocationsOfAlice();

        for (const firstIdx of [next - 1, next + 1, 0]) {
          const plan = await planFor(alice, namesOf(assets), { revocations, firstIdx });
          await expectRefused(plan, 'idx_taken', `from ${firstIdx}`);
        }
        const gap = await planFor(alice, namesOf(assets), { revocations });
        const [atNext, afterNext] = gap.assetDeletes;
        const withGap = {
          ...gap,
          assetDeletes: [atNext!, { ...afterNext!, activity: { ...afterNext!.activity, idx: next + 2 } }],
        };
        await expectRefused(withGap, 'idx_taken', 'with a gap');
      });

      it('assets_changed when a live asset of the user is missing from the plan', async () => {
        const [kept, added] = await given(anAsset({ owner: alice }), anAsset({ owner: alice }));
        const plan = await planFor(alice, namesOf([kept!]), { revocations: revocationsOfAlice() });

        await expectRefused(plan, 'assets_changed');

        expect((await store().assets.findByName(added!.name))?.deletedAt).to.equal(null);
      });

      it('assets_changed when the plan names an asset that is not a live one of the user', async () => {
        const [own, deleted, bobs] = await given(
          anAsset({ owner: alice }),
          anAsset({ owner: alice }),
          anAsset({ owner: bob }),
        );
        await deleteAsset(deleted!.name);
        const revocations = revocationsOfAlice();

        for (const extra of [deleted!.name, bobs!.name, anAssetName('never-registered')]) {
          const plan = await planFor(alice, [own!.name, extra], { revocations });
          await expectRefused(plan, 'assets_changed', extra);
        }
      });

      it('assets_changed when a planned asset was deleted after the plan was read', async () => {
        const assets = await given(anAsset({ owner: alice }), anAsset({ owner: alice }));
        const readBefore = namesOf(assets);
        await deleteAsset(assets[1]!.name);

        // Signed again at the new next idx, but from the assets read before the delete.
        const plan = await planFor(alice, readBefore, { revocations: revocationsOfAlice() });
        await expectRefused(plan, 'assets_changed');
      });

      it('assets_changed when the plan names one asset twice', async () => {
        const [only] = await given(anAsset({ owner: alice }));
        const plan = await planFor(alice, [only!.name, only!.name], { revocations: revocationsOfAlice() });

        await expectRefused(plan, 'assets_changed');
      });

      it('gone for a user nobody registered', async () => {
        const zoe = aUsername('zoe');
        const plan = await planFor(zoe, [], {
          revocations: [aRevocation({ username: zoe }), aRevocation({ username: zoe, l1Server: l1a })],
        });

        await expectRefused(plan, 'gone');

        expect(await store().users.findByUsername(zoe)).to.equal(null);
      });

      it('gone for a user deleted already, whose deletion stays as it was', async () => {
        const assets = await given(anAsset({ owner: alice }));
        expect(await store().accountRemoval.remove(await planFor(alice, namesOf(assets)), now)).to.equal(
          'removed',
        );
        await drainJobs(store(), drainAt);

        const again = await planFor(alice, [], { revocations: revocationsOfAlice() });
        const before = await snapshot(again);
        expect(await store().accountRemoval.remove(again, later(DAY))).to.equal('gone');

        expect(await snapshot(again)).to.deep.equal(before);
        expect((await store().users.findByUsername(alice))?.deletedAt).to.deep.equal(now);
        expect(await drainJobs(store(), drainAt)).to.deep.equal([]);
      });

      it('rejects, writing nothing, when a Delete cannot be stored as JSON', async () => {
        const assets = await given(anAsset({ owner: alice }), anAsset({ owner: alice }));
        const plan = await planFor(alice, namesOf(assets), { revocations: revocationsOfAlice() });
        const [first, last] = plan.assetDeletes;
        const broken = {
          ...plan,
          assetDeletes: [first!, { ...last!, activity: { ...last!.activity, document: { size: 10n } } }],
        };
        const before = await snapshot(broken);

        expect(await rejection(store().accountRemoval.remove(broken, now))).to.be.instanceOf(Error);

        expect(await snapshot(broken)).to.deep.equal(before);
        expect(await store().accountRemoval.remove(plan, now)).to.equal('removed');
      });
    });
  });
}

const summary = (job: Job): unknown => ({ kind: job.kind, payload: job.payload, queuedAt: job.queuedAt });
