// Issue 23, item 4: the SQLite store holds every password hash and private key, so only its owner may read it.
import { expect } from 'chai';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlitePersistence } from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { aUser } from '../../support/builders.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the SQLite store’s files', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'l2-modes-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates its directory 0700 and the store, -wal and -shm files 0600', async () => {
    const path = join(root, 'data', 'l2.sqlite');
    const store = openSqlitePersistence(path);
    try {
      await store.users.create(aUser());
      expect(modeOf(join(root, 'data'))).to.equal(0o700);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(modeOf(file), file).to.equal(0o600);
    } finally {
      await store.close();
    }
  });

  it('tightens a store created world-readable before this rule', async () => {
    const path = join(root, 'l2.sqlite');
    await openSqlitePersistence(path).close();
    chmodSync(path, 0o644);
    writeFileSync(`${path}-wal`, '', { mode: 0o644 });
    chmodSync(`${path}-wal`, 0o644);

    const store = openSqlitePersistence(path);
    try {
      await store.users.create(aUser());
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(modeOf(file), file).to.equal(0o600);
    } finally {
      await store.close();
    }
  });
});
