import { expect } from 'chai';
import type { AssetFilter } from '../../src/application/ports/asset-repository.js';
import type { Positioned } from '../../src/application/ports/positioned.js';
import type { Asset, AssetName } from '../../src/domain/asset.js';
import { appendWithRetry, registerAssets } from '../support/activity-writers.js';
import { anAsset, anAssetName, aUsername, later, MINUTE, T0 } from '../support/builders.js';
import {
  strictlyDecreasing,
  strictlyIncreasing,
  useStore,
  walkNewer,
  walkOlder,
  type PersistenceHarness,
} from './harness.js';

const names = (entries: readonly Positioned<Asset>[]): string[] => entries.map((e) => e.value.name);

/** The store does not validate names; the prefix tests use a few no asset could have, to show it matches literally. */
const rawName = (name: string): AssetName => name as AssetName;

export function assetRepositoryContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: AssetRepository`, () => {
    const store = useStore(harness);
    const assets = () => store().assets;
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    /** Registers assets with the given names (alice's unless `owner` says), in that order. */
    async function register(assetNames: readonly string[], overrides: Partial<Asset> = {}): Promise<Asset[]> {
      const registered = assetNames.map((n) => anAsset({ name: rawName(n), ...overrides }));
      await registerAssets(store().activities, registered);
      return registered;
    }

    async function remove(assetName: string): Promise<void> {
      const change = { kind: 'delete', name: rawName(assetName), deletedAt: later(MINUTE) } as const;
      expect((await appendWithRetry(store().activities, change)).outcome).to.equal('appended');
    }

    /** Every live asset matching `filter`, newest first, in one seek. */
    const everything = (filter: AssetFilter = {}): Promise<Positioned<Asset>[]> =>
      assets().listOlder(filter, null, 1000);

    it('finds a registered asset with every field as stored', async () => {
      const withUrl = anAsset({
        createdAt: later(1),
        updatedAt: later(2),
        altText: 'A harbour at dusk: "quoted", ünïcödé 🎨\nand a second line',
        sensitive: true,
      });
      const bare = anAsset({
        owner: bob,
        url: null,
        description: '',
        altText: null,
        sensitive: false,
        tags: [],
      });
      await registerAssets(store().activities, [withUrl, bare]);

      expect(await assets().findByName(withUrl.name)).to.deep.equal(withUrl);
      expect(await assets().findByName(bare.name)).to.deep.equal(bare);
      expect(names(await everything())).to.deep.equal([bare.name, withUrl.name]);
      expect((await everything())[1]?.value).to.deep.equal(withUrl);
    });

    it('finds nothing under a name never registered, nor under the same name in other case', async () => {
      await register(['Sunset']);

      expect(await assets().findByName(anAssetName('sunrise'))).to.equal(null);
      expect(await assets().findByName(anAssetName('sunset'))).to.equal(null);
    });

    it('still finds a deleted asset, with the time it was deleted', async () => {
      const [asset] = (await register(['sunset'])) as [Asset];

      await remove('sunset');

      expect(await assets().findByName(asset.name)).to.deep.equal({ ...asset, deletedAt: later(MINUTE) });
    });

    it('keeps its own copy of an asset, untouched by changes to the objects it was given or returned', async () => {
      const asset = anAsset({ tags: ['one'] });
      const expected = { ...asset, tags: ['one'], createdAt: new Date(T0), updatedAt: new Date(T0) };
      await registerAssets(store().activities, [asset]);
      (asset.tags as string[]).push('two');
      asset.createdAt.setTime(0);
      const found = await assets().findByName(asset.name);
      (found?.tags as string[]).push('three');
      const [listed] = await everything();
      listed?.value.updatedAt.setTime(0);

      expect(await assets().findByName(asset.name)).to.deep.equal(expected);
    });

    it('lists live assets newest registered first, whatever their creation times', async () => {
      const first = anAsset({ createdAt: later(3 * MINUTE) });
      const second = anAsset({ createdAt: later(1 * MINUTE) });
      const third = anAsset({ createdAt: later(2 * MINUTE) });
      await registerAssets(store().activities, [first, second, third]);

      const listed = await everything();

      expect(listed.map((e) => e.value)).to.deep.equal([third, second, first]);
      expect(strictlyDecreasing(listed)).to.equal(true);
      expect(await assets().count({})).to.equal(3);
    });

    it('lists nothing and counts 0 in an empty registry', async () => {
      expect(await everything()).to.deep.equal([]);
      expect(await assets().listNewer({}, 0, 10)).to.deep.equal([]);
      expect(await assets().count({})).to.equal(0);
    });

    it('seeks from a position, newest first below it and oldest first above it, at most `limit`', async () => {
      await register(['a1', 'a2', 'a3', 'a4', 'a5']);
      const at = new Map<string, number>((await everything()).map((e) => [e.value.name, e.position]));
      const pos = (n: string): number => at.get(n) as number;

      expect(names(await assets().listOlder({}, null, 2))).to.deep.equal(['a5', 'a4']);
      expect(names(await assets().listOlder({}, pos('a4'), 2))).to.deep.equal(['a3', 'a2']);
      expect(names(await assets().listOlder({}, pos('a2'), 2))).to.deep.equal(['a1']);
      expect(await assets().listOlder({}, pos('a1'), 2)).to.deep.equal([]);
      const newer = await assets().listNewer({}, pos('a1'), 3);
      expect(names(newer)).to.deep.equal(['a2', 'a3', 'a4']);
      expect(strictlyIncreasing(newer)).to.equal(true);
      expect(names(await assets().listNewer({}, pos('a4'), 3))).to.deep.equal(['a5']);
      expect(await assets().listNewer({}, pos('a5'), 3)).to.deep.equal([]);
      expect(await assets().listOlder({}, null, 0)).to.deep.equal([]);
      expect(await assets().listNewer({}, pos('a1'), 0)).to.deep.equal([]);
    });

    it('filters lists and counts by owner', async () => {
      await register(['a1'], { owner: alice });
      await register(['b1'], { owner: bob });
      await register(['a2'], { owner: alice });
      await register(['b2', 'b3'], { owner: bob });
      const at = new Map<string, number>((await everything()).map((e) => [e.value.name, e.position]));

      expect(names(await everything({ owner: alice }))).to.deep.equal(['a2', 'a1']);
      expect(names(await everything({ owner: bob }))).to.deep.equal(['b3', 'b2', 'b1']);
      expect(names(await assets().listOlder({ owner: bob }, at.get('b3') as number, 1))).to.deep.equal([
        'b2',
      ]);
      expect(names(await assets().listNewer({ owner: bob }, at.get('a1') as number, 2))).to.deep.equal([
        'b1',
        'b2',
      ]);
      expect(names(await assets().listNewer({ owner: alice }, at.get('b1') as number, 5))).to.deep.equal([
        'a2',
      ]);
      expect(await assets().count({ owner: alice })).to.equal(2);
      expect(await assets().count({ owner: bob })).to.equal(3);
      expect(await everything({ owner: aUsername('carol') })).to.deep.equal([]);
      expect(await assets().count({ owner: aUsername('carol') })).to.equal(0);
    });

    describe('by name prefix', () => {
      // LIKE would match case-insensitively and read `_` and `%` as wildcards; a prefix is none of that.
      const registered = [
        'cat',
        'Cat',
        'CAT-1',
        'cat_1',
        'cat.2',
        'catalog',
        'c_t',
        'cot',
        'ca',
        'dog',
        'cat%x',
        'café',
        'cafe',
      ];
      const cases: [prefix: string, expected: string[]][] = [
        ['cat', ['cat%x', 'catalog', 'cat.2', 'cat_1', 'cat']],
        ['Cat', ['Cat']],
        ['CAT', ['CAT-1']],
        ['cat_', ['cat_1']],
        ['c_', ['c_t']],
        ['cat%', ['cat%x']],
        ['%', []],
        ['_', []],
        ['ca', ['cafe', 'café', 'cat%x', 'ca', 'catalog', 'cat.2', 'cat_1', 'cat']],
        ['café', ['café']],
        ['cafe', ['cafe']],
        ['catalog', ['catalog']],
        ['catalogue', []],
        ['d', ['dog']],
        ['z', []],
        ['', [...registered].reverse()],
      ];

      for (const [prefix, expected] of cases) {
        it(`lists and counts the live assets whose names start with "${prefix}", case-sensitively`, async () => {
          await register(registered);

          expect(names(await everything({ namePrefix: prefix }))).to.deep.equal(expected);
          const oldest = (await everything())[registered.length - 1] as Positioned<Asset>;
          expect(
            names(await assets().listNewer({ namePrefix: prefix }, oldest.position - 1, 100)),
          ).to.deep.equal([...expected].reverse());
          expect(await assets().count({ namePrefix: prefix })).to.equal(expected.length);
        });
      }

      it('combines a prefix with an owner', async () => {
        await register(['cat-a1', 'dog-a1'], { owner: alice });
        await register(['cat-b1', 'dog-b1'], { owner: bob });
        await register(['cat-a2'], { owner: alice });

        expect(names(await everything({ owner: alice, namePrefix: 'cat' }))).to.deep.equal([
          'cat-a2',
          'cat-a1',
        ]);
        expect(await assets().count({ owner: alice, namePrefix: 'cat' })).to.equal(2);
        expect(names(await everything({ owner: bob, namePrefix: 'dog' }))).to.deep.equal(['dog-b1']);
        expect(await assets().count({ owner: bob, namePrefix: 'cat-a' })).to.equal(0);
      });
    });

    it('hides a deleted asset from every list and count, filtered or not', async () => {
      await register(['cat-1', 'cat-2', 'cat-3'], { owner: alice });
      await register(['cat-4'], { owner: bob });
      const at = new Map<string, number>((await everything()).map((e) => [e.value.name, e.position]));

      await remove('cat-2');
      await remove('cat-4');

      const filters: AssetFilter[] = [
        {},
        { owner: alice },
        { namePrefix: 'cat' },
        { owner: alice, namePrefix: 'cat-' },
      ];

      for (const filter of filters) {
        const label = JSON.stringify(filter);
        expect(names(await everything(filter)), label).to.deep.equal(['cat-3', 'cat-1']);
        expect(
          names(await assets().listNewer(filter, (at.get('cat-1') as number) - 1, 10)),
          label,
        ).to.deep.equal(['cat-1', 'cat-3']);
        expect(await assets().count(filter), label).to.equal(2);
      }
      expect(await everything({ owner: bob })).to.deep.equal([]);
      expect(await assets().count({ owner: bob })).to.equal(0);
    });

    it('keeps an updated asset at its registration position', async () => {
      const [first] = (await register(['first', 'second'])) as [Asset, Asset];
      const updated = { ...first, description: 'new words', updatedAt: later(MINUTE) };

      expect(
        (
          await appendWithRetry(store().activities, {
            kind: 'update',
            asset: updated,
            expectedUpdatedAt: first.updatedAt,
          })
        ).outcome,
      ).to.equal('appended');

      const listed = await everything();
      expect(names(listed)).to.deep.equal(['second', 'first']);
      expect(listed[1]?.value).to.deep.equal(updated);
      expect(await assets().count({})).to.equal(2);
    });

    it('replaces media type, url, description, alt text, sensitive, tags and update time on update, and keeps the rest', async () => {
      const [asset] = (await register(['sunset'], {
        createdAt: later(1),
        updatedAt: later(1),
        altText: 'The sun going down',
      })) as [Asset];
      const change = anAsset({
        name: asset.name,
        owner: bob,
        contentHash: `sha256:${'f'.repeat(64)}`,
        mediaType: 'video/mp4',
        url: null,
        description: 'Moving pictures',
        altText: 'Waves, then gulls',
        sensitive: true,
        tags: ['moving'],
        createdAt: later(5 * MINUTE),
        updatedAt: later(6 * MINUTE),
      });

      await appendWithRetry(store().activities, {
        kind: 'update',
        asset: change,
        expectedUpdatedAt: asset.updatedAt,
      });

      const changed = {
        ...asset,
        mediaType: 'video/mp4',
        url: null,
        description: 'Moving pictures',
        altText: 'Waves, then gulls',
        sensitive: true,
        tags: ['moving'],
        updatedAt: later(6 * MINUTE),
      };
      expect(await assets().findByName(asset.name)).to.deep.equal(changed);

      await appendWithRetry(store().activities, {
        kind: 'update',
        asset: { ...changed, altText: null, sensitive: false, updatedAt: later(7 * MINUTE) },
        expectedUpdatedAt: later(6 * MINUTE),
      });

      expect(await assets().findByName(asset.name)).to.deep.equal({
        ...changed,
        altText: null,
        sensitive: false,
        updatedAt: later(7 * MINUTE),
      });
    });

    it('walks every live asset exactly once, page by page, in both directions and under every filter', async () => {
      const owners = [alice, bob, aUsername('carol')];
      const all = Array.from({ length: 37 }, (_, i) =>
        anAsset({ name: anAssetName(`${i % 2 === 0 ? 'even' : 'odd'}-${i}`), owner: owners[i % 3] ?? alice }),
      );
      await registerAssets(store().activities, all);
      for (const asset of all.filter((_, i) => i % 5 === 0)) await remove(asset.name);
      const live = all.filter((_, i) => i % 5 !== 0);
      const oldest = (await everything()).at(-1) as Positioned<Asset>;
      const filters: AssetFilter[] = [
        {},
        { owner: bob },
        { namePrefix: 'odd' },
        { owner: alice, namePrefix: 'even' },
      ];

      for (const filter of filters) {
        const label = JSON.stringify(filter);
        const expected = live
          .filter(
            (a) => (!filter.owner || a.owner === filter.owner) && a.name.startsWith(filter.namePrefix ?? ''),
          )
          .map((a) => a.name);
        for (const pageSize of [1, 4, 7]) {
          const older = await walkOlder(
            (before, limit) => assets().listOlder(filter, before, limit),
            pageSize,
          );
          const newer = await walkNewer(
            (after, limit) => assets().listNewer(filter, after, limit),
            oldest.position - 1,
            pageSize,
          );

          expect(names(older), `${label} older by ${pageSize}`).to.deep.equal([...expected].reverse());
          expect(strictlyDecreasing(older), label).to.equal(true);
          expect(newer, `${label} newer by ${pageSize}`).to.deep.equal([...older].reverse());
        }
        expect(await assets().count(filter), label).to.equal(expected.length);
      }
    });
  });
}
