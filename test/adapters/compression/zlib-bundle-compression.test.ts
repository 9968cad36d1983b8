// The gzip of entry bundles (issue 33): every prefix of a bundle answered as a gzip member from one compression, made
// in one pass or grown entry by entry, and read back by zlib and by GNU gzip (another inflater than Node's).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ZlibBundleCompression } from '../../../src/adapters/compression/zlib-bundle-compression.js';
import { encodeEntryBundle } from '@l2/tlog';

/** Entries like a log's: JSON of varied length, some text repeated between them, some not. */
function entries(count: number, seed = 1): Uint8Array[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0);
  return Array.from({ length: count }, (_, i) => {
    const noise = Array.from({ length: 20 + (next() % 400) }, () =>
      String.fromCodePoint(0x4e00 + (next() % 2000)),
    );
    return new TextEncoder().encode(
      JSON.stringify({ id: `https://l2.example/activities/${i}`, text: noise.join('') }),
    );
  });
}

/** The bundle of `list` and where each of its entries ends. */
function bundleOf(list: readonly Uint8Array[]): { bytes: Uint8Array; ends: number[] } {
  const ends: number[] = [];
  let end = 0;
  for (const entry of list) ends.push((end += 2 + entry.length));
  return { bytes: encodeEntryBundle(list), ends };
}

const gzipCli = spawnSync('gzip', ['--version']).status === 0;

describe('ZlibBundleCompression', () => {
  const compression = new ZlibBundleCompression();

  it('gzips a whole bundle', async () => {
    const { bytes } = bundleOf(entries(256));
    expect(gunzipSync(await compression.gzip(bytes)).equals(Buffer.from(bytes))).to.equal(true);
  });

  it('answers every prefix of a bundle as a gzip member of exactly its first entries, from one compression', async () => {
    const list = entries(256);
    const { bytes, ends } = bundleOf(list);
    const prefixes = await compression.prefixes(bytes, ends, null);
    expect(prefixes.width).to.equal(256);
    for (let width = 1; width <= 256; width++) {
      const member = prefixes.member(width);
      expect(
        gunzipSync(member).equals(Buffer.from(encodeEntryBundle(list.slice(0, width)))),
        `width ${width}`,
      ).to.equal(true);
    }
  });

  it('grows with the last bundle, compressing only the entries it lacks, as small as one pass makes it', async () => {
    const list = entries(256, 7);
    const { bytes, ends } = bundleOf(list);
    let grown = await compression.prefixes(bytes.subarray(0, ends[2]), ends.slice(0, 3), null);
    for (const width of [4, 10, 100, 255, 256]) {
      grown = await compression.prefixes(bytes.subarray(0, ends[width - 1]), ends.slice(0, width), grown);
      expect(grown.width).to.equal(width);
    }
    const once = await compression.prefixes(bytes, ends, null);
    for (const width of [1, 3, 4, 9, 10, 11, 100, 101, 255, 256])
      expect(
        gunzipSync(grown.member(width)).equals(gunzipSync(once.member(width))),
        `width ${width}`,
      ).to.equal(true);
    // The continuations refer back into what came before, as one stream does.
    expect(grown.member(256).length).to.be.below(once.member(256).length * 1.02);
  });

  it('costs little beyond a plain gzip of the same bundle', async () => {
    const { bytes, ends } = bundleOf(entries(256, 3));
    const prefixes = await compression.prefixes(bytes, ends, null);
    expect(prefixes.member(256).length).to.be.below(gzipSync(bytes).length * 1.25);
  });

  (gzipCli ? it : it.skip)(
    'writes members GNU gzip reads back (an inflater other than Node’s zlib)',
    async () => {
      const list = entries(256, 5);
      const { bytes, ends } = bundleOf(list);
      const grown = await compression.prefixes(
        bytes,
        ends,
        await compression.prefixes(bytes.subarray(0, ends[40]), ends.slice(0, 41), null),
      );
      for (const width of [1, 41, 42, 200, 256]) {
        const read = spawnSync('gzip', ['-dc'], { input: grown.member(width) });
        expect(read.status, read.stderr.toString()).to.equal(0);
        expect(
          read.stdout.equals(Buffer.from(encodeEntryBundle(list.slice(0, width)))),
          `width ${width}`,
        ).to.equal(true);
      }
    },
  );
});
