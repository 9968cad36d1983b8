import { expect } from 'chai';
import fc from 'fast-check';
import { nodeSha256 as crypto } from '@l2/tlog/node-crypto';
import {
  entryBundle,
  entryBundlesOfTree,
  formatTilePath,
  hashesInTile,
  hashTile,
  hashTilesOfTree,
  isWithinTree,
  leafHash,
  newEntryBundles,
  newHashTiles,
  parseTilePath,
  readTile,
  tileHashReader,
  tileWidthInTree,
  treeHash,
  type HashTile,
  type TileResource,
} from '@l2/tlog';
import { MemoryTransparencyLog } from '../../../support/memory-transparency-log.js';

const noKey = { publicKey: new Uint8Array(32), sign: () => new Uint8Array(64) };
const describeTiles = (tiles: readonly HashTile[]) => tiles.map((t) => `${t.level}/${t.index}/${t.width}`);

describe('transparency: tile paths (c2sp.org/tlog-tiles)', () => {
  it('writes the index in x-prefixed 3-digit groups, as the spec example 1234067', () => {
    expect(formatTilePath(hashTile(0, 1_234_067, 256))).to.equal('tile/0/x001/x234/067');
    expect(formatTilePath(hashTile(3, 1_234_067, 1))).to.equal('tile/3/x001/x234/067.p/1');
    expect(formatTilePath(entryBundle(5, 200))).to.equal('tile/entries/005.p/200');
    expect(formatTilePath(hashTile(63, 1000, 256))).to.equal('tile/63/x001/000');
  });

  it('parses what it writes, for every level, index and width', () => {
    const resource: fc.Arbitrary<TileResource> = fc.oneof(
      fc.record({
        kind: fc.constant('hashes' as const),
        level: fc.integer({ min: 0, max: 63 }),
        index: fc.maxSafeNat(),
        width: fc.integer({ min: 1, max: 256 }),
      }),
      fc.record({
        kind: fc.constant('entries' as const),
        index: fc.maxSafeNat(),
        width: fc.integer({ min: 1, max: 256 }),
      }),
    );
    fc.assert(
      fc.property(resource, (tile) => {
        expect(parseTilePath(formatTilePath(tile))).to.deep.equal(tile);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses every other spelling, so that one resource has one path', () => {
    const refused = [
      'tile/0/0',
      'tile/0/01',
      'tile/0/0001',
      'tile/0/x000/001',
      'tile/0/x001',
      'tile/0/001/002',
      'tile/0/X001/002',
      'tile/00/001',
      'tile/01/001',
      'tile/64/001',
      'tile/-1/001',
      'tile/data/001',
      'tile/entry/001',
      'tile/+1/001',
      'tile/0/001.p/0',
      'tile/0/001.p/256',
      'tile/0/001.p/07',
      'tile/0/001.p/',
      'tile/0/001.p',
      'tile/0/001.p/1/2',
      'tile/0/001/',
      '/tile/0/001',
      'tile//001',
      'tiles/0/001',
      'tile/0/x1000/000',
      'tile/0/x001/x002',
      'tile/0/00a',
      'tile/0/ 001',
      'tile/entries/001.p/300',
      'tile/0/x009/x007/x199/x254/x740/x992/000',
      'tile/0/001.P/3',
      '',
    ];
    for (const path of refused) expect(parseTilePath(path), path).to.equal(null);
  });
});

describe('transparency: which tiles a tree has', () => {
  it('cuts a tree of 70,000 as the tlog-tiles example: 273 full level-0 tiles and one of 112, one full level-1 tile and one of 17, one level-2 tile of 1', () => {
    const tiles = hashTilesOfTree(70_000);
    const level0 = tiles.filter((t) => t.level === 0);
    expect(level0.filter((t) => t.width === 256)).to.have.length(273);
    expect(describeTiles(level0.filter((t) => t.width < 256))).to.deep.equal(['0/273/112']);
    expect(describeTiles(tiles.filter((t) => t.level > 0))).to.deep.equal(['1/0/256', '1/1/17', '2/0/1']);
    expect(entryBundlesOfTree(70_000)).to.have.length(274);
    expect(entryBundlesOfTree(70_000).at(-1)).to.deep.equal(entryBundle(273, 112));
  });

  it('gives a tree of 256 a full level-0 tile and a level-1 tile of width 1, and the empty tree nothing', () => {
    expect(describeTiles(hashTilesOfTree(256))).to.deep.equal(['0/0/256', '1/0/1']);
    expect(hashTilesOfTree(0)).to.deep.equal([]);
    expect(entryBundlesOfTree(0)).to.deep.equal([]);
  });

  it('lists only the tiles a tree gained since a smaller one', () => {
    expect(describeTiles(newHashTiles(70_000, 70_000))).to.deep.equal([]);
    expect(describeTiles(newHashTiles(70_000, 70_001))).to.deep.equal(['0/273/113']);
    expect(describeTiles(newHashTiles(70_000, 70_144))).to.deep.equal(['0/273/256', '1/1/18']);
    expect(describeTiles(newHashTiles(65_535, 65_536))).to.deep.equal(['0/255/256', '1/0/256', '2/0/1']);
    expect(newEntryBundles(255, 257)).to.deep.equal([entryBundle(0, 256), entryBundle(1, 1)]);
    expect(newEntryBundles(256, 257)).to.deep.equal([entryBundle(1, 1)]);
  });

  it('says which tiles a checkpoint vouches for: its own, and narrower partial ones of earlier sizes', () => {
    expect(tileWidthInTree(70_000, 0, 273)).to.equal(112);
    expect(tileWidthInTree(70_000, 0, 274)).to.equal(0);
    expect(tileWidthInTree(70_000, 3, 0)).to.equal(0);
    expect(isWithinTree(hashTile(0, 273, 112), 70_000)).to.equal(true);
    expect(isWithinTree(hashTile(0, 273, 5), 70_000)).to.equal(true);
    expect(isWithinTree(hashTile(0, 273, 113), 70_000)).to.equal(false);
    expect(isWithinTree(hashTile(0, 274, 1), 70_000)).to.equal(false);
    expect(isWithinTree(hashTile(2, 0, 1), 70_000)).to.equal(true);
    expect(isWithinTree(hashTile(2, 0, 2), 70_000)).to.equal(false);
    expect(isWithinTree(entryBundle(273, 256), 70_000)).to.equal(false);
  });
});

describe('transparency: tile contents', () => {
  const log = new MemoryTransparencyLog('example.com/log', noKey);
  before(() => {
    for (let i = 0; i < 70_000; i++) log.append(new Uint8Array([i & 0xff, (i >> 8) & 0xff, i >> 16]));
  });

  it('fills a level-0 tile with leaf hashes and a level-1 tile with the roots of full level-0 tiles', async () => {
    const level0 = hashesInTile(await readTile(log.reader, hashTile(0, 273, 112)))!;
    expect(level0).to.have.length(112);
    expect(level0[0]).to.deep.equal(leafHash(crypto, log.entries[273 * 256]!));
    const level1 = hashesInTile(await readTile(log.reader, hashTile(1, 1, 17)))!;
    const tile272 = new MemoryTransparencyLog('example.com/sub', noKey).append(
      ...log.entries.slice(272 * 256, 273 * 256),
    );
    expect(level1[16]).to.deep.equal(tile272.root());
    expect(hashesInTile(new Uint8Array(33))).to.equal(null);
  });

  it('rebuilds the tree hash from served tiles alone, as a client does', async () => {
    const fetched: string[] = [];
    const reader = tileHashReader(70_000, async (tile, path) => {
      fetched.push(path);
      return readTile(log.reader, tile);
    });
    expect(await treeHash(crypto, reader, 70_000)).to.deep.equal(log.root());
    expect(fetched.sort()).to.deep.equal(['tile/0/273.p/112', 'tile/1/001.p/17', 'tile/2/000.p/1']);
  });
});
