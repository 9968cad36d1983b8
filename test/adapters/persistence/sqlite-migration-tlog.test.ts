// The transparency log's migration (issue 27) opening a file written by the schema before it: the history already
// stored gets its hashes and right edge, so the first checkpoint covers it, and later appends go on from there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { nodeSha256 as crypto } from '@l2/tlog/node-crypto';
import {
  MIGRATIONS,
  TRANSPARENCY_LOG_MIGRATION_VERSION,
} from '../../../src/adapters/persistence/sqlite/migrations.js';
import { appliedVersions, migrate } from '../../../src/adapters/persistence/sqlite/sqlite-migrate.js';
import {
  openSqlitePersistence,
  type SqlitePersistence,
} from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import {
  appendToRightEdge,
  EMPTY_RIGHT_EDGE,
  leafHash,
  rangeHashReader,
  rootOfRightEdge,
  treeHash,
} from '@l2/tlog';
import { anActivity } from '../../support/builders.js';
import { testTransparencyLog } from '../../support/tlog-test-key.js';
import { appendActivities } from '../../contract/transparency-log.contract.js';

describe(`SQLite migration ${TRANSPARENCY_LOG_MIGRATION_VERSION} (the transparency log)`, function () {
  let dir: string;
  const opened: SqlitePersistence[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-migration-tlog-'));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A file at the migration before the log's, holding `count` activities written as that schema wrote them. */
  function fileBeforeTheLog(count: number): { path: string; texts: string[] } {
    const path = join(dir, 'l2.sqlite');
    const old = new Database(path);
    try {
      const before = MIGRATIONS.filter((m) => m.version < TRANSPARENCY_LOG_MIGRATION_VERSION);
      expect(migrate(old, before)).to.deep.equal(before.map((m) => m.version));
      const insert = old.prepare(
        'INSERT INTO activities (idx, type, actor, object, published, document) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const texts: string[] = [];
      for (let idx = 0; idx < count; idx++) {
        const activity = anActivity({ idx });
        const text = JSON.stringify({ ...activity.document, n: idx, note: `«${idx}» 🎨` });
        texts.push(text);
        insert.run(idx, activity.type, activity.actor, activity.object, activity.published.getTime(), text);
      }
      return { path, texts };
    } finally {
      old.close();
    }
  }

  const rootOf = (texts: readonly string[]) => {
    let edge = EMPTY_RIGHT_EDGE;
    for (const text of texts)
      edge = appendToRightEdge(crypto, edge, leafHash(crypto, new TextEncoder().encode(text))).edge;
    return rootOfRightEdge(crypto, edge);
  };

  it('builds the log from the history already stored: its hashes give the root of the stored entries', async () => {
    const { path, texts } = fileBeforeTheLog(600);

    const store = openSqlitePersistence(path);
    opened.push(store);

    expect(appliedVersions(store.db)).to.deep.equal(MIGRATIONS.map((m) => m.version));
    const log = store.transparencyLog;
    expect(await log.state()).to.deep.equal({ size: 600, origin: null, checkpoint: null });
    const reader = rangeHashReader((level, first, count) => log.hashes(level, first, count));
    expect(await treeHash(crypto, reader, 600)).to.deep.equal(rootOf(texts));
    expect(await treeHash(crypto, reader, 512)).to.deep.equal(rootOf(texts.slice(0, 512)));
    expect((await log.hashes(1, 0, 2)).length).to.equal(2);
  });

  it('lets the first start sign a checkpoint over all of it, and later appends go on from there', async () => {
    const { path, texts } = fileBeforeTheLog(300);
    const store = openSqlitePersistence(path);
    opened.push(store);

    const service = testTransparencyLog(store.transparencyLog);
    await service.start();
    const first = await service.latest();
    expect(first?.size).to.equal(300);
    expect(first?.note.split('\n')[2]).to.equal(Buffer.from(rootOf(texts)).toString('base64'));

    await appendActivities(store, 2);
    await service.cover(302);
    const entries = (await store.transparencyLog.entries(0, 302)).map((e) => new TextDecoder().decode(e));
    expect(entries.slice(0, 300)).to.deep.equal(texts);
    expect((await service.latest())?.note.split('\n')[2]).to.equal(
      Buffer.from(rootOf(entries)).toString('base64'),
    );
  });

  it('gives a store with no activity the empty log', async () => {
    const { path } = fileBeforeTheLog(0);
    const store = openSqlitePersistence(path);
    opened.push(store);
    expect(await store.transparencyLog.state()).to.deep.equal({ size: 0, origin: null, checkpoint: null });
  });
});
