// The TransparencyLog service on the memory store: what it signs, when it refuses to, and several instances on
// one store.
import { expect } from 'chai';
import { nodeSha256 as crypto, verifyEd25519 } from '@l2/tlog/node-crypto';
import {
  openMemoryPersistence,
  type MemoryPersistence,
} from '../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { TransparencyLogUnavailableError } from '../../../src/application/ports/errors.js';
import type { TransparencyObserver } from '../../../src/application/ports/transparency-observer.js';
import {
  openCheckpoint,
  parseVerifierKey,
  verifyConsistency,
  proveConsistency,
  rangeHashReader,
} from '@l2/tlog';
import { appendActivities } from '../../contract/transparency-log.contract.js';
import { RecordedProblems } from '../../support/use-case-kit.js';
import { testTransparencyLog, testVerifierKey } from '../../support/tlog-test-key.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected a rejection.');
}

class RecordingObserver implements TransparencyObserver {
  readonly events: string[] = [];
  checked(size: number): void {
    this.events.push(`checked ${size}`);
  }
  signed(size: number): void {
    this.events.push(`signed ${size}`);
  }
  inconsistent(): void {
    this.events.push('inconsistent');
  }
}

const key = () => {
  const parsed = parseVerifierKey(crypto, testVerifierKey());
  if (!parsed.ok) throw new Error('no key');
  return parsed.value;
};

const open = (note: string) => {
  const opened = openCheckpoint(note, key(), verifyEd25519);
  if (!opened.ok) throw new Error(JSON.stringify(opened.error));
  return opened.value.checkpoint;
};

function setUp(store: MemoryPersistence = openMemoryPersistence()) {
  const observer = new RecordingObserver();
  const problems = new RecordedProblems();
  const log = testTransparencyLog(store.transparencyLog, { observer, problems });
  return { store, observer, problems, log };
}

/** Replaces the stored text of activity `idx`, as an intruder with the database would. */
function tamper(store: MemoryPersistence, idx: number, text: string): void {
  const stored = store.db.activities[idx]!;
  store.db.activities[idx] = { ...stored, document: text };
}

describe('TransparencyLog', () => {
  it('signs the empty log at its first start, so that a checkpoint is always served', async () => {
    const { log, observer } = setUp();
    await log.start();
    const latest = await log.latest();
    expect(open(latest!.note).size).to.equal(0);
    expect(log.health()).to.deep.equal({ state: 'consistent' });
    expect(observer.events).to.deep.equal(['checked 0', 'signed 0']);
  });

  it('covers each size asked, and one signing round covers every write that waited for it', async () => {
    const { store, log, observer } = setUp();
    await log.start();
    await appendActivities(store, 5);
    const covers = await Promise.all([1, 2, 3, 4, 5].map((size) => log.cover(size)));
    for (const [i, checkpoint] of covers.entries()) expect(checkpoint.size).to.be.at.least(i + 1);
    expect(observer.events.filter((e) => e.startsWith('signed')).length).to.be.at.most(3);
    expect((await log.latest())?.size).to.equal(5);
  });

  it('commits in groups: a round right after another waits out the interval, then one signature covers every write', async () => {
    const store = openMemoryPersistence();
    const waits: number[] = [];
    let release = () => {};
    const observer = new RecordingObserver();
    const log = testTransparencyLog(store.transparencyLog, {
      observer,
      roundIntervalMs: 50,
      wait: (ms) => {
        waits.push(ms);
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await log.start();
    expect(waits, 'the first round of a quiet log starts at once').to.deep.equal([]);
    await appendActivities(store, 3);
    const covers = [1, 2, 3].map((size) => log.cover(size));
    await new Promise((resolve) => setImmediate(resolve));
    expect(waits).to.have.length(1);
    expect(waits[0]).to.be.above(0).and.at.most(50);
    release();
    expect((await Promise.all(covers)).map((c) => c.size)).to.deep.equal([3, 3, 3]);
    expect(observer.events).to.deep.equal(['checked 0', 'signed 0', 'signed 3']);
  });

  it('signs only trees that extend the last checkpoint: consistency proofs link every pair it signed', async () => {
    const { store, log } = setUp();
    await log.start();
    const notes: string[] = [];
    for (const count of [1, 2, 253, 1, 1, 300]) {
      await appendActivities(store, count);
      notes.push((await log.cover((await store.activities.nextIdx()) as number)).note);
    }
    const reader = rangeHashReader((level, first, count) =>
      store.transparencyLog.hashes(level, first, count),
    );
    const checkpoints = notes.map(open);
    for (let i = 1; i < checkpoints.length; i++) {
      const [older, newer] = [checkpoints[i - 1]!, checkpoints[i]!];
      const proof = await proveConsistency(crypto, reader, older.size, newer.size);
      expect(
        verifyConsistency(crypto, older.size, newer.size, proof, older.rootHash, newer.rootHash),
      ).to.equal(true);
    }
  });

  it('gives two instances on one store byte-identical checkpoints, the store keeping the largest', async () => {
    const store = openMemoryPersistence();
    const [a, b] = [setUp(store).log, setUp(store).log];
    await Promise.all([a.start(), b.start()]);
    await appendActivities(store, 3);
    const [fromA, fromB] = await Promise.all([a.cover(3), b.cover(3)]);
    expect(fromA.note).to.equal(fromB.note);
    await appendActivities(store, 2);
    await b.cover(5);
    expect((await a.latest())?.size).to.equal(5);
    await appendActivities(store, 1);
    // A signs over what B signed: it checks B's checkpoint against the tree it rebuilt itself.
    expect((await a.cover(6)).size).to.equal(6);
    expect(a.health().state).to.equal('consistent');
  });

  describe('a changed stored activity', () => {
    it('is found at start-up: reported once, the log inconsistent for good, nothing signed, writes refused', async () => {
      const { store, log: first } = setUp();
      await first.start();
      await appendActivities(store, 10);
      const good = (await first.cover(10)).note;
      tamper(store, 4, store.db.activities[4]!.document.replace('"n":4', '"n":40'));

      const { log, observer, problems } = setUp(store);
      const failed = await rejection(log.start());

      expect(failed).to.be.instanceOf(TransparencyLogUnavailableError);
      expect(log.health()).to.deep.include({ state: 'inconsistent' });
      expect((log.health() as { reason: string }).reason).to.match(
        /^activity 4 is not the entry that was logged/,
      );
      expect(observer.events).to.deep.equal(['inconsistent']);
      expect(problems.errors).to.have.length(1);
      expect(problems.errors[0]).to.match(/^transparency log inconsistent/);
      expect(() => log.refuseUnlessConsistent()).to.throw(TransparencyLogUnavailableError);
      await appendActivities(store, 1);
      expect(await rejection(log.cover(11))).to.be.instanceOf(TransparencyLogUnavailableError);
      expect(await rejection(log.start())).to.be.instanceOf(TransparencyLogUnavailableError);
      expect((await log.latest())?.note, 'the last good checkpoint stays served').to.equal(good);
      expect(observer.events).to.deep.equal(['inconsistent']);
    });

    it('is found before signing by a running instance that had not read it yet, and never signed over', async () => {
      const { store, log } = setUp();
      await log.start();
      await appendActivities(store, 3);
      tamper(store, 1, '{"rewritten":true}');
      expect(await rejection(log.cover(3))).to.be.instanceOf(TransparencyLogUnavailableError);
      expect((await log.latest())?.size).to.equal(0);
    });

    it('is found when a stored tile hash is changed, even with every entry intact', async () => {
      const { store, log: first } = setUp();
      await first.start();
      await appendActivities(store, 300);
      await first.cover(300);
      store.db.tlog.levels[1]![0] = new Uint8Array(32);
      const { log } = setUp(store);
      expect(await rejection(log.start())).to.be.instanceOf(TransparencyLogUnavailableError);
      expect((log.health() as { reason: string }).reason).to.match(/stored hash 0 of tile level 1/);
    });
  });

  it('refuses to sign a history rewritten after a checkpoint (a store restored from an older backup, then written)', async () => {
    const store = openMemoryPersistence();
    const { log } = setUp(store);
    await log.start();
    await appendActivities(store, 8);
    await log.cover(8);
    // The same checkpoint over a store whose entries 5–7 were dropped and written anew, differently.
    const restored = openMemoryPersistence();
    const before = store.db.activities.slice(0, 5).map((a) => a.document);
    await appendActivities(restored, 5);
    for (const [i, text] of before.entries()) tamper(restored, i, text);
    restored.db.tlog.levels.length = 0;
    restored.db.tlog.edge = { size: 0, hashes: [] };
    for (const [i, stored] of restored.db.activities.entries())
      restored.db.tlog.apply(restored.db.tlog.prepare(i, stored.document));
    await appendActivities(restored, 3);
    restored.db.tlog.checkpoint = (await store.transparencyLog.state()).checkpoint;

    const { log: after, problems } = setUp(restored);
    expect(await rejection(after.start())).to.be.instanceOf(TransparencyLogUnavailableError);
    expect((after.health() as { reason: string }).reason).to.match(
      /do not give the root of the checkpoint of size 8/,
    );
    expect(problems.errors).to.have.length(1);
  });

  it('refuses a store whose checkpoint covers more entries than it holds', async () => {
    const { store, log } = setUp();
    await log.start();
    await appendActivities(store, 2);
    await log.cover(2);
    const other = openMemoryPersistence();
    await appendActivities(other, 1);
    other.db.tlog.checkpoint = (await store.transparencyLog.state()).checkpoint;
    const { log: after } = setUp(other);
    expect(await rejection(after.start())).to.be.instanceOf(TransparencyLogUnavailableError);
    expect((after.health() as { reason: string }).reason).to.match(/fewer than its checkpoint of 2/);
  });

  it('refuses a kept checkpoint another key signed', async () => {
    const { store, log } = setUp();
    await log.start();
    await appendActivities(store, 2);
    await log.cover(2);
    const forged = testTransparencyLog(store.transparencyLog, { origin: 'elsewhere.example/tlog' });
    await appendActivities(store, 1);
    store.db.tlog.checkpoint = null;
    await forged.cover(3);
    const { log: after } = setUp(store);
    expect(await rejection(after.start())).to.be.instanceOf(TransparencyLogUnavailableError);
    expect((after.health() as { reason: string }).reason).to.match(/not one this log's key signed/);
  });
});
