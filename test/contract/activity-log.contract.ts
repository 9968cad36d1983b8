import { expect } from 'chai';
import type { ActivityFilter, AssetChange } from '../../src/application/ports/activity-log.js';
import type { Positioned } from '../../src/application/ports/positioned.js';
import type { Activity } from '../../src/domain/activity.js';
import type { Asset } from '../../src/domain/asset.js';
import { activityFor, appendWithRetry, registerAssets } from '../support/activity-writers.js';
import type { Job } from '../../src/application/ports/job-queue.js';
import {
  aFollower,
  anAcceptJob,
  anActivity,
  anAsset,
  anAssetName,
  aUsername,
  DAY,
  later,
  MINUTE,
  T0,
} from '../support/builders.js';
import {
  strictlyDecreasing,
  strictlyIncreasing,
  useStore,
  walkNewer,
  walkOlder,
  type PersistenceHarness,
  rejection,
} from './harness.js';

const indexes = (entries: readonly Positioned<Activity>[]): number[] => entries.map((e) => e.value.idx);

export function activityLogContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: ActivityLog`, () => {
    const store = useStore(harness);
    const log = () => store().activities;
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    /** Everything a refused or failed append could have written: compared before and after it. */
    async function snapshot(names: readonly string[] = []): Promise<unknown> {
      return {
        nextIdx: await log().nextIdx(),
        activities: await log().listOlder({}, null, 1000),
        count: await log().count({}),
        assets: await store().assets.listOlder({}, null, 1000),
        assetCount: await store().assets.count({}),
        named: await Promise.all(names.map((n) => store().assets.findByName(anAssetName(n)))),
      };
    }

    /** The activity recording `change` at the current next idx, and the outcome of appending it. */
    async function appendNext(change: AssetChange, overrides: Partial<Activity> = {}): Promise<string> {
      const activity = { ...activityFor(change, await log().nextIdx()), ...overrides };
      return log().append(activity, change);
    }

    it('starts empty: next idx 0, no activity, nothing listed or counted', async () => {
      expect(await log().nextIdx()).to.equal(0);
      expect(await log().get(0)).to.equal(null);
      expect(await log().listOlder({}, null, 10)).to.deep.equal([]);
      expect(await log().listNewer({}, -1, 10)).to.deep.equal([]);
      expect(await log().count({})).to.equal(0);
    });

    it('appends at 0, 1, 2, … and returns each activity as appended: document deep-equal, dates as Date', async () => {
      const appended: Activity[] = [];
      for (let idx = 0; idx < 3; idx++) {
        const asset = anAsset();
        const activity = anActivity({
          idx,
          actor: asset.owner,
          object: asset.name,
          published: later(idx * MINUTE),
        });

        expect(await log().append(activity, { kind: 'create', asset })).to.equal('appended');
        appended.push(activity);
      }

      expect(await log().nextIdx()).to.equal(3);
      expect(await log().count({})).to.equal(3);
      for (const activity of appended) {
        const found = await log().get(activity.idx);
        expect(found).to.deep.equal(activity);
        expect(found?.published).to.be.instanceOf(Date);
      }
    });

    it('stores the document as JSON: what JSON drops is dropped, what it turns to text comes back as text', async () => {
      const asset = anAsset();
      const document = { type: 'Create', when: later(5), gone: undefined, list: [1, undefined], nan: NaN };

      await log().append(anActivity({ object: asset.name, document }), { kind: 'create', asset });

      expect((await log().get(0))?.document).to.deep.equal(JSON.parse(JSON.stringify(document)));
    });

    it('keeps its own copy of a document, untouched by changes to the objects it was given or returned', async () => {
      const asset = anAsset();
      const activity = anActivity({ object: asset.name, document: { list: [1], inner: { a: 1 } } });
      await log().append(activity, { kind: 'create', asset });
      (activity.document.list as number[]).push(2);
      activity.published.setTime(0);
      const found = await log().get(0);
      (found?.document.inner as Record<string, number>).a = 2;
      const [listed] = await log().listOlder({}, null, 1);
      listed?.value.published.setTime(1);

      const again = await log().get(0);
      expect(again?.document).to.deep.equal({ list: [1], inner: { a: 1 } });
      expect(again?.published).to.deep.equal(T0);
    });

    it('finds no activity at an idx not appended', async () => {
      await registerAssets(log(), [anAsset(), anAsset()]);

      for (const idx of [2, 3, -1, 0.5, 1_000_000]) expect(await log().get(idx), String(idx)).to.equal(null);
    });

    it('applies each change together with its activity', async () => {
      const asset = anAsset({ name: anAssetName('sunset') });

      expect(await appendNext({ kind: 'create', asset })).to.equal('appended');
      expect(await store().assets.findByName(asset.name)).to.deep.equal(asset);

      const updated = { ...asset, description: 'Later that evening', tags: [], updatedAt: later(MINUTE) };
      expect(
        await appendNext({ kind: 'update', asset: updated, expectedUpdatedAt: asset.updatedAt }),
      ).to.equal('appended');
      expect(await store().assets.findByName(asset.name)).to.deep.equal(updated);

      expect(await appendNext({ kind: 'delete', name: asset.name, deletedAt: later(2 * MINUTE) })).to.equal(
        'appended',
      );
      expect(await store().assets.findByName(asset.name)).to.deep.equal({
        ...updated,
        deletedAt: later(2 * MINUTE),
      });
      expect((await log().listOlder({}, null, 10)).map((e) => e.value.type)).to.deep.equal([
        'Delete',
        'Update',
        'Create',
      ]);
      expect(await store().assets.count({})).to.equal(0);
    });

    describe('writes nothing unless it appends', () => {
      it('refuses an idx already taken or beyond the next one: idx_taken', async () => {
        await registerAssets(log(), [anAsset()]);
        const before = await snapshot(['late', 'early']);

        for (const [idx, assetName] of [
          [0, 'late'],
          [2, 'early'],
          [-1, 'late'],
          [1.5, 'late'],
        ] as const) {
          const asset = anAsset({ name: anAssetName(assetName) });
          expect(
            await log().append(anActivity({ idx, object: asset.name }), { kind: 'create', asset }),
          ).to.equal('idx_taken');
        }

        expect(await snapshot(['late', 'early'])).to.deep.equal(before);
      });

      it('refuses to register a name in use, live or deleted, whoever asks: asset_exists', async () => {
        await registerAssets(log(), [
          anAsset({ name: anAssetName('live') }),
          anAsset({ name: anAssetName('gone') }),
        ]);
        await appendWithRetry(log(), { kind: 'delete', name: anAssetName('gone'), deletedAt: later(MINUTE) });
        const before = await snapshot(['live', 'gone']);

        for (const assetName of ['live', 'gone']) {
          const again = anAsset({ name: anAssetName(assetName), owner: bob, description: 'an impostor' });
          expect(await appendNext({ kind: 'create', asset: again }), assetName).to.equal('asset_exists');
        }

        expect(await snapshot(['live', 'gone'])).to.deep.equal(before);
      });

      it('refuses an update made from a stale read: asset_changed, and writes nothing', async () => {
        const asset = anAsset({ name: anAssetName('contested') });
        await registerAssets(log(), [asset]);
        const first = { ...asset, description: 'first edit', updatedAt: later(MINUTE) };
        expect(
          await appendNext({ kind: 'update', asset: first, expectedUpdatedAt: asset.updatedAt }),
        ).to.equal('appended');
        const before = await snapshot(['contested']);
        // A second writer that read the asset before the first edit:
        const stale = { ...asset, tags: ['other'], updatedAt: later(2 * MINUTE) };
        expect(
          await appendNext({ kind: 'update', asset: stale, expectedUpdatedAt: asset.updatedAt }),
        ).to.equal('asset_changed');
        expect(await snapshot(['contested'])).to.deep.equal(before);
      });

      it('refuses to update or delete a deleted or never registered asset: asset_gone', async () => {
        const gone = anAsset({ name: anAssetName('gone') });
        await registerAssets(log(), [gone, anAsset({ name: anAssetName('live') })]);
        await appendWithRetry(log(), { kind: 'delete', name: gone.name, deletedAt: later(MINUTE) });
        const before = await snapshot(['gone', 'never']);

        const changes: AssetChange[] = [
          {
            kind: 'update',
            asset: { ...gone, description: 'revived', updatedAt: later(2 * MINUTE) },
            expectedUpdatedAt: gone.updatedAt,
          },
          { kind: 'update', asset: anAsset({ name: anAssetName('never') }), expectedUpdatedAt: T0 },
          { kind: 'delete', name: gone.name, deletedAt: later(2 * MINUTE) },
          { kind: 'delete', name: anAssetName('never'), deletedAt: later(2 * MINUTE) },
        ];
        for (const change of changes) {
          expect(await appendNext(change), JSON.stringify(change)).to.equal('asset_gone');
        }

        expect(await snapshot(['gone', 'never'])).to.deep.equal(before);
      });

      it('writes neither asset nor activity when the activity cannot be stored, and the idx stays free', async () => {
        const kept = anAsset({ name: anAssetName('kept') });
        await registerAssets(log(), [kept]);
        const before = await snapshot(['kept', 'fresh']);
        const unserialisable = { type: 'Create', size: 10n };
        const fresh = anAsset({ name: anAssetName('fresh') });

        const changes: AssetChange[] = [
          { kind: 'create', asset: fresh },
          {
            kind: 'update',
            asset: { ...kept, description: 'changed', updatedAt: later(MINUTE) },
            expectedUpdatedAt: kept.updatedAt,
          },
          { kind: 'delete', name: kept.name, deletedAt: later(MINUTE) },
        ];
        for (const change of changes) {
          const error = await rejection(appendNext(change, { document: unserialisable }));
          expect(error, change.kind).to.be.instanceOf(Error);
          expect(await snapshot(['kept', 'fresh']), change.kind).to.deep.equal(before);
        }

        expect(await appendNext({ kind: 'create', asset: fresh })).to.equal('appended');
        expect((await log().get(1))?.object).to.equal('fresh');
      });
    });

    describe("the deliveries to the actor's followers", () => {
      /** Every due job, claimed and completed (so the Accepts of the follows do not get in the way). */
      async function drainJobs(): Promise<Job[]> {
        const all: Job[] = [];
        for (let i = 0; ; i++) {
          const jobs = await store().jobs.claim({
            now: later(DAY),
            leaseMs: MINUTE,
            limit: 100,
            leaseId: `drain-${i}`,
          });
          if (jobs.length === 0) return all;
          for (const job of jobs) await store().jobs.complete(job);
          all.push(...jobs);
        }
      }
      const deliveries = (jobs: Job[]) =>
        jobs
          .filter((j) => j.kind === 'activity_delivery')
          .map((j) => ({ payload: j.payload, lane: j.lane, queuedAt: j.queuedAt }));

      beforeEach(async () => {
        const followers = [
          aFollower({
            actor: 'https://a.example/users/1',
            inbox: 'https://a.example/users/1/inbox',
            sharedInbox: 'https://a.example/inbox',
          }),
          aFollower({
            actor: 'https://a.example/users/2',
            inbox: 'https://a.example/users/2/inbox',
            sharedInbox: 'https://a.example/inbox',
          }),
          aFollower({
            actor: 'https://b.example/u/3',
            inbox: 'https://b.example/u/3/inbox',
            sharedInbox: null,
          }),
          aFollower({
            username: bob,
            actor: 'https://c.example/u/4',
            inbox: 'https://c.example/u/4/in',
            sharedInbox: null,
          }),
        ];
        for (const f of followers) await store().followers.add(f, anAcceptJob(f), T0);
        await drainJobs();
      });

      it('queues one per distinct inbox (a shared inbox once), at the time the activity was published', async () => {
        const asset = anAsset({ owner: alice });
        const activity = { ...activityFor({ kind: 'create', asset }, 0), published: later(MINUTE) };

        expect(await log().append(activity, { kind: 'create', asset })).to.equal('appended');

        expect(deliveries(await drainJobs())).to.deep.equal([
          {
            payload: { idx: 0, inbox: 'https://a.example/inbox' },
            lane: 'https://a.example',
            queuedAt: later(MINUTE),
          },
          {
            payload: { idx: 0, inbox: 'https://b.example/u/3/inbox' },
            lane: 'https://b.example',
            queuedAt: later(MINUTE),
          },
        ]);
      });

      it('queues none for an actor nobody follows, and none for an append that is refused', async () => {
        const carols = anAsset({ owner: aUsername('carol') });
        expect(await appendNext({ kind: 'create', asset: carols })).to.equal('appended');
        const taken = anAsset({ owner: alice, name: carols.name });
        expect(await appendNext({ kind: 'create', asset: taken })).to.equal('asset_exists');
        expect(
          await log().append(activityFor({ kind: 'create', asset: anAsset({ owner: alice }) }, 0), {
            kind: 'create',
            asset: anAsset({ owner: alice }),
          }),
        ).to.equal('idx_taken');

        expect(deliveries(await drainJobs())).to.deep.equal([]);
      });
    });

    it('gives 200 appends by 10 concurrent writers the idx 0 to 199, each exactly once, each with its asset', async () => {
      const writers = Array.from({ length: 10 }, (_, w) =>
        Array.from({ length: 20 }, (_, i) => anAsset({ name: anAssetName(`w${w}-${i}`) })),
      );

      let retries = 0;
      const results = await Promise.all(
        writers.map(async (assets) => {
          const taken: number[] = [];
          for (const asset of assets) {
            const appended = await appendWithRetry(log(), { kind: 'create', asset });
            expect(appended.outcome).to.equal('appended');
            taken.push(appended.idx);
            retries += appended.retries;
          }
          return taken;
        }),
      );

      expect(retries, 'writers that raced for an idx').to.be.greaterThan(0);
      const taken = results.flat().sort((a, b) => a - b);
      expect(taken).to.deep.equal(Array.from({ length: 200 }, (_, i) => i));
      expect(await log().nextIdx()).to.equal(200);
      expect(await log().count({})).to.equal(200);
      expect(await store().assets.count({})).to.equal(200);
      const activities = await log().listNewer({}, -1, 1000);
      expect(indexes(activities)).to.deep.equal(taken);
      for (const { value } of activities) {
        const asset = await store().assets.findByName(value.object);
        expect(asset?.owner, value.object).to.equal(value.actor);
      }
      expect(new Set(activities.map((e) => e.value.object)).size).to.equal(200);
    });

    describe('listing', () => {
      /** 12 activities: alice's at idx 0, 2, 4, …, bob's at 1, 3, 5, … */
      async function appendTwelve(): Promise<void> {
        for (let i = 0; i < 12; i++) {
          const asset = anAsset({ owner: i % 2 === 0 ? alice : bob });
          await appendWithRetry(log(), { kind: 'create', asset });
        }
      }

      it('positions each activity at its idx, newest first below a position and oldest first above it', async () => {
        await appendTwelve();

        const newest = await log().listOlder({}, null, 3);
        expect(indexes(newest)).to.deep.equal([11, 10, 9]);
        expect(newest.map((e) => e.position)).to.deep.equal([11, 10, 9]);
        expect(indexes(await log().listOlder({}, 9, 4))).to.deep.equal([8, 7, 6, 5]);
        expect(indexes(await log().listOlder({}, 1, 4))).to.deep.equal([0]);
        expect(await log().listOlder({}, 0, 4)).to.deep.equal([]);
        const newer = await log().listNewer({}, 5, 3);
        expect(indexes(newer)).to.deep.equal([6, 7, 8]);
        expect(newer.map((e) => e.position)).to.deep.equal([6, 7, 8]);
        expect(indexes(await log().listNewer({}, 9, 10))).to.deep.equal([10, 11]);
        expect(await log().listNewer({}, 11, 10)).to.deep.equal([]);
        expect(await log().listOlder({}, null, 0)).to.deep.equal([]);
        expect(await log().listNewer({}, 0, 0)).to.deep.equal([]);
        expect((await log().listOlder({}, 5, 1))[0]?.value).to.deep.equal(await log().get(4));
      });

      it("filters by actor (an outbox), and counts each actor's activities", async () => {
        await appendTwelve();

        expect(indexes(await log().listOlder({ actor: alice }, null, 3))).to.deep.equal([10, 8, 6]);
        expect(indexes(await log().listOlder({ actor: bob }, 7, 2))).to.deep.equal([5, 3]);
        expect(indexes(await log().listNewer({ actor: bob }, 4, 2))).to.deep.equal([5, 7]);
        expect(indexes(await log().listNewer({ actor: alice }, 9, 5))).to.deep.equal([10]);
        expect(await log().count({ actor: alice })).to.equal(6);
        expect(await log().count({ actor: bob })).to.equal(6);
        expect(await log().listOlder({ actor: aUsername('carol') }, null, 5)).to.deep.equal([]);
        expect(await log().count({ actor: aUsername('carol') })).to.equal(0);
      });

      it('walks every activity exactly once, page by page, in both directions, filtered or not', async () => {
        const owners = [alice, bob, aUsername('carol')];
        const assets: Asset[] = Array.from({ length: 31 }, (_, i) =>
          anAsset({ owner: owners[i % 3] ?? alice }),
        );
        await registerAssets(log(), assets);

        const filters: ActivityFilter[] = [{}, { actor: alice }, { actor: bob }];
        for (const filter of filters) {
          const expected = assets.flatMap((a, idx) =>
            !filter.actor || a.owner === filter.actor ? [idx] : [],
          );
          for (const pageSize of [1, 5, 8]) {
            const label = `${JSON.stringify(filter)} by ${pageSize}`;
            const older = await walkOlder(
              (before, limit) => log().listOlder(filter, before, limit),
              pageSize,
            );
            const newer = await walkNewer(
              (after, limit) => log().listNewer(filter, after, limit),
              -1,
              pageSize,
            );

            expect(indexes(older), label).to.deep.equal([...expected].reverse());
            expect(strictlyDecreasing(older), label).to.equal(true);
            expect(strictlyIncreasing(newer), label).to.equal(true);
            expect(newer, label).to.deep.equal([...older].reverse());
          }
          expect(await log().count(filter)).to.equal(expected.length);
        }
      });
    });
  });
}
