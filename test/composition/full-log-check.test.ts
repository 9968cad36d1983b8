// The start-up check of a SQLite file's log, run in a child process (persistence/sqlite/sqlite-full-log-check.ts):
// it reaches the tree this process would have built, and a stored activity changed behind L2's back is still found.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeSha256 } from '@l2/tlog/node-crypto';
import {
  openSqlitePersistence,
  type SqlitePersistence,
} from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { LogInconsistency, VerifiedTree } from '../../src/application/services/transparency/verified-tree.js';
import { childProcessFullLogCheck } from '../../src/adapters/persistence/sqlite/sqlite-full-log-check.js';
import { rejection } from '../contract/harness.js';
import { appendActivities } from '../contract/transparency-log.contract.js';
import { testTransparencyLog } from '../support/tlog-test-key.js';

describe('the start-up check in a child process (SQLite)', function () {
  // Each check starts a Node process (through tsx here).
  const SIZE = 600;
  let dir: string;
  let path: string;
  let store: SqlitePersistence;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'l2-full-check-'));
    path = join(dir, 'l2.sqlite');
    store = openSqlitePersistence(path);
    await appendActivities(store, SIZE);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the tree, and the roots at the marked sizes, that checking in this process gives', async () => {
    const here = new VerifiedTree(store.transparencyLog, nodeSha256, async () => {});
    await here.extendTo(SIZE, [1, 300]);
    const there = await childProcessFullLogCheck(path).check(SIZE, [1, 300]);
    expect(there).to.deep.equal(here.checked());
    expect(there.roots.map(([size]) => size)).to.deep.equal([1, 300]);
  });

  it('signs over the same root, and a log checked there is taken as checked by the next start', async () => {
    const fullCheck = { ...childProcessFullLogCheck(path), minSize: 0 };
    const first = testTransparencyLog(store.transparencyLog, { fullCheck });
    await first.start();
    expect(first.health()).to.deep.equal({ state: 'consistent' });
    // Checked in this process, the kept checkpoint must be over the root rebuilt here.
    const second = testTransparencyLog(store.transparencyLog);
    await second.start();
    expect(second.health()).to.deep.equal({ state: 'consistent' });
    expect((await second.latest())?.size).to.equal(SIZE);
  });

  it('finds a stored activity changed behind its back: the log turns inconsistent, naming the activity', async () => {
    await testTransparencyLog(store.transparencyLog).start();
    const changed = store.db
      .prepare("UPDATE activities SET document = replace(document, '«417»', '«41x»') WHERE idx = 417")
      .run();
    expect(changed.changes).to.equal(1);
    const error = await rejection(childProcessFullLogCheck(path).check(SIZE, []));
    expect(error).to.be.instanceOf(LogInconsistency);
    expect((error as Error).message).to.match(/^activity 417 is not the entry that was logged/);
    const log = testTransparencyLog(store.transparencyLog, {
      fullCheck: { ...childProcessFullLogCheck(path), minSize: 0 },
    });
    await rejection(log.start());
    const health = log.health();
    expect(health.state).to.equal('inconsistent');
    expect(health.state === 'inconsistent' && health.reason).to.match(/^activity 417 /);
  });

  it('fails, without calling the log inconsistent, when the file cannot be read', async () => {
    const error = await rejection(childProcessFullLogCheck(join(dir, 'missing.sqlite')).check(SIZE, []));
    expect(error).to.not.be.instanceOf(LogInconsistency);
    expect((error as Error).message).to.match(/^the transparency log check process failed: /);
  });
});
