import { expect } from 'chai';
import { nodeSha256 as crypto } from '@l2/tlog/node-crypto';
import type { Persistence } from '../../src/application/ports/persistence.js';
import { LogDataMissingError } from '../../src/application/ports/transparency-log-store.js';
import { emptyTreeHash, leafHash, nodeHash, rangeHashReader, splitPoint, treeHash } from '@l2/tlog';
import { activityFor } from '../support/activity-writers.js';
import { anAsset, aUsername } from '../support/builders.js';
import { TEST_TLOG_ORIGIN, testTransparencyLog } from '../support/tlog-test-key.js';
import { useStore, type PersistenceHarness, rejection } from './harness.js';

/** RFC 6962's MTH, written out as the RFC does (recursion at the largest power of two below n): the reference. */
function fromScratch(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return emptyTreeHash(crypto);
  if (leaves.length === 1) return leaves[0]!;
  const k = splitPoint(leaves.length);
  return nodeHash(crypto, fromScratch(leaves.slice(0, k)), fromScratch(leaves.slice(k)));
}

/** Appends `count` activities (each registering an asset) as the use-cases would, at the next idx. */
export async function appendActivities(store: Persistence, count: number): Promise<void> {
  const first = await store.activities.nextIdx();
  const owner = aUsername('alice');
  for (let idx = first; idx < first + count; idx++) {
    const asset = anAsset({ owner });
    const activity = activityFor({ kind: 'create', asset }, idx);
    // Documents that JSON writes in its own ways, kept byte for byte: the entry is the stored text.
    const document = { ...activity.document, n: idx, text: `«${idx}» \u2028 🎨 </script> "q"` };
    const outcome = await store.activities.append({ ...activity, document }, { kind: 'create', asset });
    if (outcome !== 'appended') throw new Error(`append ${idx}: ${outcome}`);
  }
}

/** What the log's kept hashes give, against the reference computed from the entries read back. */
async function expectRootFromScratch(store: Persistence, size: number): Promise<Uint8Array> {
  const log = store.transparencyLog;
  expect((await log.state()).size).to.equal(size);
  const entries = size === 0 ? [] : await log.entries(0, size);
  const leaves = entries.map((entry) => leafHash(crypto, entry));
  if (size > 0) expect(await log.hashes(0, 0, size)).to.deep.equal(leaves);
  const reference = fromScratch(leaves);
  const reader = rangeHashReader((level, first, count) => log.hashes(level, first, count));
  expect(await treeHash(crypto, reader, size), `root of ${size}`).to.deep.equal(reference);
  return reference;
}

/** The sizes around every tile edge a store must get right (API.md §8); the largest are the memory store's. */
export const TILE_EDGE_SIZES = [0, 1, 255, 256, 257] as const;
export const LARGE_TILE_EDGE_SIZES = [65_536, 65_537] as const;

/** Builds a log of each size and checks it against the reference (used by the memory store for the largest). */
export function transparencyLogAtSizes(
  name: string,
  harness: PersistenceHarness,
  sizes: readonly number[],
): void {
  describe(`${name}: TransparencyLogStore, the root after N appends`, function () {
    this.timeout(300_000);
    const store = useStore(harness);
    for (const size of sizes) {
      it(`equals the root computed from scratch for N = ${size.toLocaleString('en')}`, async () => {
        await appendActivities(store(), size);
        const root = await expectRootFromScratch(store(), size);
        // A signed checkpoint of that size is over the same root.
        const log = testTransparencyLog(store().transparencyLog);
        await log.start();
        const latest = await log.latest();
        expect(latest?.size).to.equal(size);
        expect(latest?.note.split('\n').slice(0, 3)).to.deep.equal([
          TEST_TLOG_ORIGIN,
          String(size),
          Buffer.from(root).toString('base64'),
        ]);
      });
    }
  });
}

export function transparencyLogContract(name: string, harness: PersistenceHarness): void {
  transparencyLogAtSizes(name, harness, TILE_EDGE_SIZES);

  describe(`${name}: TransparencyLogStore`, () => {
    const store = useStore(harness);
    const log = () => store().transparencyLog;

    it('starts empty: size 0, no origin, no checkpoint', async () => {
      expect(await log().state()).to.deep.equal({ size: 0, origin: null, checkpoint: null });
    });

    it('keeps one hash per completed tile above level 0: 256 appends complete tile 0 of level 1', async () => {
      await appendActivities(store(), 255);
      expect(await rejection(log().hashes(1, 0, 1))).to.be.instanceOf(LogDataMissingError);
      await appendActivities(store(), 1);
      const [tileRoot] = await log().hashes(1, 0, 1);
      expect(tileRoot).to.deep.equal(fromScratch(await log().hashes(0, 0, 256)));
    });

    it('answers entries as the stored bytes of each document, and refuses ranges it does not hold', async () => {
      await appendActivities(store(), 3);
      const [entry] = await log().entries(1, 1);
      const activity = await store().activities.get(1);
      expect(JSON.parse(new TextDecoder().decode(entry))).to.deep.equal(activity?.document);
      expect(new TextDecoder().decode(entry)).to.contain('\u2028').and.contain('🎨');
      expect(await rejection(log().entries(2, 2))).to.be.instanceOf(LogDataMissingError);
      expect(await rejection(log().hashes(0, 3, 1))).to.be.instanceOf(LogDataMissingError);
    });

    it('pins the first origin it is given and answers it to every later call', async () => {
      expect(await log().pinOrigin('a.example/tlog')).to.equal('a.example/tlog');
      expect(await log().pinOrigin('b.example/tlog')).to.equal('a.example/tlog');
      expect((await log().state()).origin).to.equal('a.example/tlog');
    });

    it('keeps the largest checkpoint: a smaller or equal one is not kept', async () => {
      await appendActivities(store(), 5);
      expect(await log().recordCheckpoint({ size: 3, note: 'three' })).to.equal(true);
      expect(await log().recordCheckpoint({ size: 5, note: 'five' })).to.equal(true);
      expect(await log().recordCheckpoint({ size: 4, note: 'four' })).to.equal(false);
      expect(await log().recordCheckpoint({ size: 5, note: 'other five' })).to.equal(false);
      expect((await log().state()).checkpoint).to.deep.equal({ size: 5, note: 'five' });
    });

    it('writes no hash for an append that is refused', async () => {
      await appendActivities(store(), 1);
      const asset = anAsset({ owner: aUsername('alice') });
      const taken = activityFor({ kind: 'create', asset }, 0);
      expect(await store().activities.append(taken, { kind: 'create', asset })).to.equal('idx_taken');
      const gone = activityFor({ kind: 'delete', name: asset.name, deletedAt: new Date() }, 1);
      expect(
        await store().activities.append(gone, { kind: 'delete', name: asset.name, deletedAt: new Date() }),
      ).to.equal('asset_gone');
      expect((await log().state()).size).to.equal(1);
      expect(await rejection(log().hashes(0, 1, 1))).to.be.instanceOf(LogDataMissingError);
      await appendActivities(store(), 1);
      await expectRootFromScratch(store(), 2);
    });

    it('refuses, writing nothing, an activity whose entry would exceed 65,535 bytes', async () => {
      const asset = anAsset({ owner: aUsername('alice') });
      const activity = activityFor({ kind: 'create', asset }, 0);
      const huge = { ...activity, document: { ...activity.document, padding: 'x'.repeat(65_536) } };
      expect(await rejection(store().activities.append(huge, { kind: 'create', asset }))).to.be.an('error');
      expect(await store().activities.nextIdx()).to.equal(0);
      expect(await store().assets.findByName(asset.name)).to.equal(null);
      expect((await log().state()).size).to.equal(0);
    });
  });
}
