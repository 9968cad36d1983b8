// EntryBundles (issue 33): a bundle built once for reads that come together, a failed build forgotten, the bytes
// kept within their bound, and the growing last bundle extended by the entries it lacks.
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { LruCacheFactory } from '../../../src/adapters/cache/lru-cache-factory.js';
import { ZlibBundleCompression } from '../../../src/adapters/compression/zlib-bundle-compression.js';
import {
  DEFAULT_ENTRY_BUNDLE_LIMITS,
  EntryBundles,
  type BundleRead,
  type EntryBundleLimits,
} from '../../../src/application/services/transparency/entry-bundles.js';
import { encodeEntryBundle } from '@l2/tlog';

/** A log of `size` entries of `entrySize` bytes whose reads are recorded, and fail while `failing` is set. */
class RecordedLog {
  readonly reads: [first: number, count: number][] = [];
  failing = false;

  constructor(
    private readonly size: number,
    private readonly entrySize = 100,
  ) {}

  entry(idx: number): Uint8Array {
    return new TextEncoder().encode(String(idx).padEnd(this.entrySize, '.'));
  }

  async entries(first: number, count: number): Promise<Uint8Array[]> {
    this.reads.push([first, count]);
    if (this.failing) throw new Error('the store is down');
    if (first + count > this.size) throw new Error('beyond the log');
    return Array.from({ length: count }, (_, i) => this.entry(first + i));
  }
}

function setUp(log: RecordedLog, limits: Partial<EntryBundleLimits> = {}) {
  const bundles = new EntryBundles(
    log,
    new ZlibBundleCompression(),
    new LruCacheFactory(),
    { ...DEFAULT_ENTRY_BUNDLE_LIMITS, ...limits },
    () => new Promise((resolve) => setImmediate(resolve)),
  );
  const read = (request: Partial<BundleRead> & { index: number }) =>
    bundles.read({ width: 256, covered: 256, gzip: false, client: () => 'a', ...request });
  const expected = (index: number, width: number) =>
    encodeEntryBundle(Array.from({ length: width }, (_, i) => log.entry(index * 256 + i)));
  return { read, expected };
}

const value = <T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
  return result.value;
};

describe('EntryBundles', () => {
  it('builds a bundle once for reads of it that come together, holding one slot', async () => {
    const log = new RecordedLog(512);
    const { read, expected } = setUp(log, { buildsPerClient: 1 });
    const answers = await Promise.all([
      read({ index: 1 }),
      read({ index: 1, gzip: true }),
      read({ index: 1, width: 9 }),
    ]);
    expect(Buffer.from(value(answers[0]!)).equals(Buffer.from(expected(1, 256)))).to.equal(true);
    expect(gunzipSync(value(answers[1]!)).equals(Buffer.from(expected(1, 256)))).to.equal(true);
    expect(Buffer.from(value(answers[2]!)).equals(Buffer.from(expected(1, 9)))).to.equal(true);
    const entriesRead = log.reads.reduce((sum, [, count]) => sum + count, 0);
    expect(entriesRead).to.equal(256);
  });

  it('reads the store a few entries at a time', async () => {
    const log = new RecordedLog(256);
    const { read } = setUp(log, { entriesPerRead: 16 });
    value(await read({ index: 0 }));
    expect(log.reads).to.have.length(16);
    expect(log.reads.every(([, count]) => count === 16)).to.equal(true);
  });

  it('forgets a build that failed, gives its slot back, and builds again at the next read', async () => {
    const log = new RecordedLog(256);
    const { read, expected } = setUp(log, { buildsPerClient: 1, buildsAtOnce: 1 });
    log.failing = true;
    let failure: unknown;
    await read({ index: 0 }).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(Error);
    log.failing = false;
    expect(Buffer.from(value(await read({ index: 0 }))).equals(Buffer.from(expected(0, 256)))).to.equal(true);
  });

  it('refuses a build past the bound of its client (rate_limited) or of all (busy), with Retry-After seconds', async () => {
    const log = new RecordedLog(1024);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = { entries: async (first: number, count: number) => (await held, log.entries(first, count)) };
    const bundles = new EntryBundles(
      slow,
      new ZlibBundleCompression(),
      new LruCacheFactory(),
      { ...DEFAULT_ENTRY_BUNDLE_LIMITS, buildsPerClient: 1, buildsAtOnce: 2 },
      async () => {},
    );
    const read = (index: number, client: string) =>
      bundles.read({ index, width: 256, covered: 256, gzip: false, client: () => client });
    const under = [read(0, 'a'), read(1, 'b')];
    expect(await read(2, 'a')).to.deep.equal({
      ok: false,
      error: { type: 'rate_limited', retryAfterSeconds: 1 },
    });
    expect(await read(2, 'c')).to.deep.equal({ ok: false, error: { type: 'busy', retryAfterSeconds: 1 } });
    release();
    for (const answer of await Promise.all(under)) expect(answer.ok).to.equal(true);
    expect((await read(2, 'a')).ok).to.equal(true);
  });

  it('keeps no more bytes than its bound: past it, the least recently read bundle is read again', async () => {
    const log = new RecordedLog(768, 1000);
    // One plain bundle (256 × 1002 bytes) fits, two do not.
    const { read } = setUp(log, { keptBytes: 300_000 });
    value(await read({ index: 0 }));
    value(await read({ index: 0 }));
    expect(log.reads.length).to.equal(16);
    value(await read({ index: 1 }));
    value(await read({ index: 0 }));
    expect(log.reads.length).to.equal(48);
  });

  it('extends the growing last bundle by reading only the entries it lacks', async () => {
    const log = new RecordedLog(300);
    const { read, expected } = setUp(log);
    const first = value(await read({ index: 1, width: 4, covered: 4, gzip: true }));
    expect(gunzipSync(first).equals(Buffer.from(expected(1, 4)))).to.equal(true);
    expect(log.reads).to.deep.equal([[256, 4]]);
    const wider = value(await read({ index: 1, width: 30, covered: 44, gzip: true }));
    expect(gunzipSync(wider).equals(Buffer.from(expected(1, 30)))).to.equal(true);
    expect(log.reads).to.deep.equal([
      [256, 4],
      [260, 16],
      [276, 16],
      [292, 8],
    ]);
    // Every width up to 44 is answered now without reading.
    for (const width of [1, 4, 5, 44])
      expect(
        gunzipSync(value(await read({ index: 1, width, covered: 44, gzip: true }))).equals(
          Buffer.from(expected(1, width)),
        ),
      ).to.equal(true);
    expect(log.reads).to.have.length(4);
  });
});
