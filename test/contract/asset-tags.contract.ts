import { expect } from 'chai';
import type { AssetFilter } from '../../src/application/ports/asset-repository.js';
import type { Positioned } from '../../src/application/ports/positioned.js';
import type { Asset, AssetName } from '../../src/domain/asset.js';
import { appendWithRetry, registerAssets } from '../support/activity-writers.js';
import { anAsset, aUsername, later, MINUTE } from '../support/builders.js';
import { strictlyDecreasing, useStore, walkNewer, walkOlder, type PersistenceHarness } from './harness.js';

const names = (entries: readonly Positioned<Asset>[]): string[] => entries.map((e) => e.value.name);

/** The store does not validate names or tags: the tests use a few no asset could have, to show they match literally. */
const rawName = (name: string): AssetName => name as AssetName;

/** AssetFilter.tag (a hashtag page, API.md §4.1): the live assets carrying a tag, compared case-insensitively. */
export function assetTagsContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: AssetRepository by tag`, () => {
    const store = useStore(harness);
    const assets = () => store().assets;
    const alice = aUsername('alice');
    const bob = aUsername('bob');

    /** Registers assets named and tagged as given (alice's unless `owner` says), in that order. */
    async function register(
      tagged: readonly [name: string, tags: readonly string[]][],
      overrides: Partial<Asset> = {},
    ): Promise<Asset[]> {
      const registered = tagged.map(([n, tags]) => anAsset({ name: rawName(n), tags, ...overrides }));
      await registerAssets(store().activities, registered);
      return registered;
    }

    async function remove(assetName: string): Promise<void> {
      const change = { kind: 'delete', name: rawName(assetName), deletedAt: later(MINUTE) } as const;
      expect((await appendWithRetry(store().activities, change)).outcome).to.equal('appended');
    }

    async function retag(asset: Asset, tags: readonly string[]): Promise<Asset> {
      const updated = { ...asset, tags, updatedAt: later(MINUTE, asset.updatedAt) };
      const change = { kind: 'update', asset: updated, expectedUpdatedAt: asset.updatedAt } as const;
      expect((await appendWithRetry(store().activities, change)).outcome).to.equal('appended');
      return updated;
    }

    /** The names a filter lists newest first (one seek), oldest first (from before the oldest) and its count. */
    async function seen(filter: AssetFilter): Promise<{ older: string[]; newer: string[]; count: number }> {
      return {
        older: names(await assets().listOlder(filter, null, 1000)),
        newer: names(await assets().listNewer(filter, 0, 1000)),
        count: await assets().count(filter),
      };
    }
    const expecting = (newestFirst: string[]) => ({
      older: newestFirst,
      newer: [...newestFirst].reverse(),
      count: newestFirst.length,
    });

    it('lists and counts the live assets carrying a tag, newest first, whatever the case of either', async () => {
      await register([
        ['one', ['Art', 'sea']],
        ['two', ['sea']],
        ['three', ['art']],
        ['four', ['ART', 'art']],
        ['five', ['artist', 'part', 'ar']],
      ]);
      await register([['six', ['aRt']]], { owner: bob });

      for (const tag of ['art', 'Art', 'ART'])
        expect(await seen({ tag }), tag).to.deep.equal(expecting(['six', 'four', 'three', 'one']));
      expect(await seen({ tag: 'SEA' })).to.deep.equal(expecting(['two', 'one']));
      expect(await seen({ tag: 'ar' })).to.deep.equal(expecting(['five']));
    });

    it('compares beyond ASCII, and takes no character of a tag for a wildcard', async () => {
      await register([
        ['one', ['Über', 'ΚΑΛΗ', 'café']],
        ['two', ['über']],
        ['three', ['a_c', 'a%c']],
        ['four', ['abc']],
      ]);

      expect(await seen({ tag: 'ÜBER' })).to.deep.equal(expecting(['two', 'one']));
      expect(await seen({ tag: 'καλη' })).to.deep.equal(expecting(['one']));
      expect(await seen({ tag: 'CAFÉ' })).to.deep.equal(expecting(['one']));
      expect(await seen({ tag: 'a_c' })).to.deep.equal(expecting(['three']));
      expect(await seen({ tag: 'a%c' })).to.deep.equal(expecting(['three']));
      expect(await seen({ tag: 'a.c' })).to.deep.equal(expecting([]));
    });

    it('lists nothing and counts 0 for a tag nobody uses, or the empty tag', async () => {
      await register([['one', ['art']]]);

      for (const tag of ['sea', 'art ', '#art', ''])
        expect(await seen({ tag }), JSON.stringify(tag)).to.deep.equal(expecting([]));
      expect(await assets().listOlder({ tag: 'sea' }, 5, 10)).to.deep.equal([]);
    });

    it('leaves deleted assets out of every list and count of a tag', async () => {
      await register([
        ['one', ['art']],
        ['two', ['Art', 'sea']],
        ['three', ['art']],
      ]);

      await remove('two');
      await remove('three');

      expect(await seen({ tag: 'art' })).to.deep.equal(expecting(['one']));
      expect(await seen({ tag: 'sea' })).to.deep.equal(expecting([]));
    });

    it('follows an update: a tag taken off leaves its list, a tag added joins it at the registration position', async () => {
      const [one] = (await register([
        ['one', ['art', 'sea']],
        ['two', ['art']],
      ])) as [Asset, Asset];

      const once = await retag(one, ['ART', 'sky']);
      expect(await seen({ tag: 'art' })).to.deep.equal(expecting(['two', 'one']));
      expect(await seen({ tag: 'sea' })).to.deep.equal(expecting([]));
      expect(await seen({ tag: 'sky' })).to.deep.equal(expecting(['one']));
      expect((await assets().listOlder({ tag: 'sky' }, null, 1))[0]?.value.tags).to.deep.equal([
        'ART',
        'sky',
      ]);

      await retag(once, []);
      expect(await seen({ tag: 'art' })).to.deep.equal(expecting(['two']));
      expect(await seen({ tag: 'sky' })).to.deep.equal(expecting([]));
    });

    it('combines a tag with an owner and with a name prefix', async () => {
      await register(
        [
          ['cat-a1', ['art']],
          ['dog-a1', ['Art']],
        ],
        { owner: alice },
      );
      await register(
        [
          ['cat-b1', ['art']],
          ['dog-b1', ['sea']],
        ],
        { owner: bob },
      );
      await register([['cat-a2', ['ART']]], { owner: alice });

      expect(await seen({ tag: 'art', owner: alice })).to.deep.equal(
        expecting(['cat-a2', 'dog-a1', 'cat-a1']),
      );
      expect(await seen({ tag: 'art', owner: bob })).to.deep.equal(expecting(['cat-b1']));
      expect(await seen({ tag: 'art', namePrefix: 'cat' })).to.deep.equal(
        expecting(['cat-a2', 'cat-b1', 'cat-a1']),
      );
      expect(await seen({ tag: 'art', owner: alice, namePrefix: 'dog' })).to.deep.equal(
        expecting(['dog-a1']),
      );
      expect(await seen({ tag: 'sea', owner: alice })).to.deep.equal(expecting([]));
    });

    it('walks every live asset of a tag exactly once, page by page, in both directions', async () => {
      const all = Array.from({ length: 37 }, (_, i) =>
        anAsset({
          name: rawName(`a-${i}`),
          owner: i % 2 ? alice : bob,
          tags: i % 3 === 0 ? ['other'] : [i % 2 ? 'Art' : 'art', `n${i}`],
        }),
      );
      await registerAssets(store().activities, all);
      for (const asset of all.filter((_, i) => i % 5 === 0)) await remove(asset.name);
      const expected = all
        .filter((_, i) => i % 5 !== 0 && i % 3 !== 0)
        .map((a) => a.name)
        .reverse();
      const oldest = (await assets().listOlder({}, null, 1000)).at(-1) as Positioned<Asset>;

      const filters: AssetFilter[] = [{ tag: 'ART' }, { tag: 'art', owner: alice }];
      for (const filter of filters) {
        const label = JSON.stringify(filter);
        const wanted = expected.filter(
          (n) => !filter.owner || all.find((a) => a.name === n)?.owner === filter.owner,
        );
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

          expect(names(older), `${label} older by ${pageSize}`).to.deep.equal(wanted);
          expect(strictlyDecreasing(older), label).to.equal(true);
          expect(newer, `${label} newer by ${pageSize}`).to.deep.equal([...older].reverse());
        }
        expect(await assets().count(filter), label).to.equal(wanted.length);
      }
    });

    it('seeks a tag from a position, at most `limit`, and none for a limit of 0', async () => {
      await register([
        ['a1', ['art']],
        ['x', ['sea']],
        ['a2', ['art']],
        ['a3', ['art']],
        ['a4', ['art']],
      ]);
      const at = new Map<string, number>(
        (await assets().listOlder({}, null, 100)).map((e) => [e.value.name, e.position]),
      );
      const pos = (n: string): number => at.get(n) as number;

      expect(names(await assets().listOlder({ tag: 'art' }, null, 2))).to.deep.equal(['a4', 'a3']);
      expect(names(await assets().listOlder({ tag: 'art' }, pos('a3'), 2))).to.deep.equal(['a2', 'a1']);
      expect(names(await assets().listOlder({ tag: 'art' }, pos('a2'), 2))).to.deep.equal(['a1']);
      expect(names(await assets().listNewer({ tag: 'art' }, pos('a1'), 2))).to.deep.equal(['a2', 'a3']);
      expect(names(await assets().listNewer({ tag: 'art' }, pos('x'), 5))).to.deep.equal(['a2', 'a3', 'a4']);
      expect(await assets().listNewer({ tag: 'art' }, pos('a4'), 5)).to.deep.equal([]);
      expect(await assets().listOlder({ tag: 'art' }, null, 0)).to.deep.equal([]);
      expect(await assets().listNewer({ tag: 'art' }, 0, 0)).to.deep.equal([]);
    });
  });
}
