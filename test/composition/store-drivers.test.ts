// The one table of stores (composition/store-drivers.ts): every store folder has its line, nothing else in src/
// names a store, and each line opens its store with the counters and start-up check that go with it.
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, STORE_DRIVERS, storeKindOf } from '../../src/composition/store-drivers.js';
import { freshDatabase, postgresAvailable } from '../support/postgres-cluster.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PERSISTENCE = join(SRC, 'adapters/persistence');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the table of stores', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-store-drivers-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has a line for every store folder, and none without one', () => {
    const folders = readdirSync(PERSISTENCE).filter((name) =>
      statSync(join(PERSISTENCE, name)).isDirectory(),
    );

    expect(Object.keys(STORE_DRIVERS).sort()).to.deep.equal(folders.sort());
  });

  it('is the only place outside the store folders that names a store', () => {
    const naming = sourceFiles(SRC)
      .filter((file) => !file.startsWith(PERSISTENCE) && !file.endsWith('composition/store-drivers.ts'))
      .filter((file) => /'(memory|sqlite|postgres|mongodb)'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));

    expect(naming).to.deep.equal([]);
  });

  it('takes each STORE value to the store it names, and no other value', () => {
    expect(storeKindOf('memory:')).to.equal('memory');
    expect(storeKindOf('sqlite:./data/l2.sqlite')).to.equal('sqlite');
    expect(storeKindOf('mongodb://db1,db2/l2?replicaSet=rs0')).to.equal('mongodb');
    expect(storeKindOf('mongodb+srv://cluster.example.net/l2')).to.equal('mongodb');
    expect(storeKindOf('postgres://l2:secret@db:5432/l2')).to.equal('postgres');
    expect(storeKindOf('postgresql://db/l2?sslmode=require')).to.equal('postgres');
    expect(storeKindOf('postgres://db1:5432,db2:5432/l2?target_session_attrs=read-write')).to.equal(
      'postgres',
    );
    for (const other of ['postgres:x', 'pg://db/l2', 'memory:x', 'mongodb:x', 'file:l2.sqlite', ''])
      expect(storeKindOf(other), other).to.equal(undefined);
  });

  it('opens a SQLite file with its counters next to the data and its start-up check in a child process', async () => {
    const url = `sqlite:${join(dir, 'l2.sqlite')}`;
    const opened = await openStore({ kind: 'sqlite', url });
    try {
      await opened.persistence.ready();
      expect(await opened.persistence.users.count()).to.equal(0);
      expect(opened.fullLogCheck?.minSize).to.be.a('number');
      const limiter = opened.counters.limiter('test', 1, 60);
      // The library creates its table a turn of the event loop after the limiter is made.
      await new Promise((resolve) => setImmediate(resolve));
      await limiter.consume('someone');
      const again = await limiter.consume('someone').then(
        () => 'allowed',
        () => 'limited',
      );
      expect(again).to.equal('limited');

      // Another process on the file sees the counter: it is in the file.
      const other = await openStore({ kind: 'sqlite', url });
      const seen = await other.counters.limiter('test', 1, 60).get('someone');
      await other.persistence.close();
      expect(seen?.consumedPoints, 'both attempts, the refused one too').to.equal(2);
    } finally {
      await opened.persistence.close();
    }
  });

  it('opens a memory store with counters in this process and no check outside it', async () => {
    const opened = await openStore({ kind: 'memory', url: 'memory:' });
    try {
      expect(await opened.persistence.users.count()).to.equal(0);
      expect(opened.fullLogCheck).to.equal(undefined);
      const limiter = opened.counters.limiter('test', 1, 60);
      await limiter.consume('someone');
      expect((await limiter.get('someone'))?.consumedPoints).to.equal(1);
    } finally {
      await opened.persistence.close();
    }
  });

  it('opens a PostgreSQL database with its counters in the database: another process on it shares them', async function () {
    if (!postgresAvailable()) this.skip();
    const scratch = await freshDatabase();
    const opened = await openStore({ kind: 'postgres', url: scratch.url });
    const other = await openStore({ kind: 'postgres', url: scratch.url });
    try {
      await opened.persistence.ready();
      await other.persistence.ready();
      expect(await opened.persistence.users.count()).to.equal(0);
      expect(opened.fullLogCheck).to.equal(undefined);
      await opened.counters.limiter('test', 1, 60).consume('someone');
      const again = await other.counters
        .limiter('test', 1, 60)
        .consume('someone')
        .then(
          () => 'allowed',
          () => 'limited',
        );
      expect(again, 'the second attempt, through the other pool').to.equal('limited');
      expect((await opened.counters.limiter('test', 1, 60).get('someone'))?.consumedPoints).to.equal(2);

      await opened.counters.purgeExpired(new Date(Date.now() + 61_000));
      expect(await other.counters.limiter('test', 1, 60).get('someone'), 'purged by either').to.equal(null);
    } finally {
      await opened.persistence.close();
      await other.persistence.close();
      await scratch.drop();
    }
  });
});
