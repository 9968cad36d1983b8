// Migration 8 (issue 25: profiles, alt text, sensitive assets, hashtag pages) opening a file written by the schema
// before it: the users and assets already there read with the defaults, and their tags are found by the new index.
import { NO_MOVE } from '../../../src/domain/account-move.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { MIGRATIONS } from '../../../src/adapters/persistence/sqlite/migrations.js';
import { appliedVersions, migrate } from '../../../src/adapters/persistence/sqlite/sqlite-migrate.js';
import {
  openSqlitePersistence,
  type SqlitePersistence,
} from '../../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { Asset } from '../../../src/domain/asset.js';
import { EMPTY_PROFILE } from '../../../src/domain/profile.js';
import { profileOf, type User } from '../../../src/domain/user.js';
import { appendWithRetry } from '../../support/activity-writers.js';
import {
  anAsset,
  anAssetName,
  aProfile,
  aUser,
  aUsername,
  later,
  MINUTE,
  T0,
} from '../../support/builders.js';

describe('SQLite migration 8', () => {
  let dir: string;
  const opened: SqlitePersistence[] = [];
  const freshDbPath = (): string => join(dir, 'l2.sqlite');
  const open = (path: string): SqlitePersistence => {
    const store = openSqlitePersistence(path);
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-migration-8-'));
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('on a file written by the schema before it', () => {
    /** A file at migration 7, with alice and bob, and four assets of alice's written as that schema wrote them. */
    function fileBeforeMigration8(): { path: string; alice: User; bob: User; assets: Asset[] } {
      const path = freshDbPath();
      const old = new Database(path);
      try {
        expect(
          migrate(
            old,
            MIGRATIONS.filter((m) => m.version <= 7),
          ),
        ).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
        const [alice, bob] = [aUser({ username: aUsername('alice') }), aUser({ username: aUsername('bob') })];
        const addUser = old.prepare(
          `INSERT INTO users (username, password_hash, public_key_pem, private_key_pem, created_at)
           VALUES (?, ?, ?, ?, ?)`,
        );
        for (const u of [alice, bob])
          addUser.run(u.username, u.passwordHash, u.publicKeyPem, u.privateKeyPem, u.createdAt.getTime());
        old.exec("UPDATE counters SET value = 2 WHERE name = 'users'");
        const assets = [
          anAsset({ name: anAssetName('one'), tags: ['Art', 'Über'] }),
          anAsset({ name: anAssetName('two'), tags: ['sea', 'ART', 'art'] }),
          anAsset({ name: anAssetName('gone'), tags: ['art', 'sea'], deletedAt: later(MINUTE) }),
          anAsset({ name: anAssetName('three'), tags: [] }),
        ];
        const addAsset = old.prepare(
          `INSERT INTO assets (name, owner, content_hash, media_type, url, description, tags, created_at,
             updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const a of assets)
          addAsset.run(
            a.name,
            a.owner,
            a.contentHash,
            a.mediaType,
            a.url,
            a.description,
            JSON.stringify(a.tags),
            a.createdAt.getTime(),
            a.updatedAt.getTime(),
            a.deletedAt?.getTime() ?? null,
          );
        old.exec(`UPDATE counters SET value = 3 WHERE name = 'live_assets';
                  INSERT INTO user_counts (username, live_assets) VALUES ('alice', 3);`);
        return { path, alice, bob, assets };
      } finally {
        old.close();
      }
    }

    it('reads the users already there with the empty profile at version 0, and writes theirs from it', async () => {
      const { path, alice, bob } = fileBeforeMigration8();

      const store = open(path);

      expect(appliedVersions(store.db)).to.deep.equal(MIGRATIONS.map((m) => m.version));
      expect(await store.users.findByUsername(alice.username)).to.deep.equal(alice);
      expect((await store.users.findProfile(bob.username))?.profile).to.deep.equal(EMPTY_PROFILE);
      expect((await store.users.listOlder(null, 10)).map((e) => e.value)).to.deep.equal(
        [bob, alice].map(profileOf),
      );
      expect(alice.profileVersion).to.equal(0);
      const change = { username: alice.username, expectedVersion: 0, profile: aProfile(), move: NO_MOVE };
      expect(await store.users.updateProfile(change, T0)).to.equal('updated');
      expect(await store.users.findByUsername(alice.username)).to.deep.equal({
        ...alice,
        profile: aProfile(),
        profileVersion: 1,
      });
    });

    it('reads the assets already there without alt text and not sensitive', async () => {
      const { path, assets } = fileBeforeMigration8();

      const store = open(path);

      for (const asset of assets) {
        expect(asset).to.deep.include({ altText: null, sensitive: false });
        expect(await store.assets.findByName(asset.name)).to.deep.equal(asset);
      }
    });

    it('files the live assets already there under their tags, by any case, and keeps the index with later writes', async () => {
      const { path, assets } = fileBeforeMigration8();
      const [one, two] = assets as [Asset, Asset];

      const store = open(path);
      const tagged = async (tag: string) => ({
        names: (await store.assets.listOlder({ tag }, null, 10)).map((e) => e.value.name as string),
        count: await store.assets.count({ tag }),
      });

      expect(await tagged('art')).to.deep.equal({ names: ['two', 'one'], count: 2 });
      expect(await tagged('ÜBER')).to.deep.equal({ names: ['one'], count: 1 });
      expect(await tagged('Sea')).to.deep.equal({ names: ['two'], count: 1 });
      const rows = store.db.prepare('SELECT tag, seq FROM asset_tags ORDER BY tag, seq').all();
      expect(rows, 'one row per live asset and tag key').to.deep.equal([
        { tag: 'art', seq: 1 },
        { tag: 'art', seq: 2 },
        { tag: 'sea', seq: 2 },
        { tag: 'über', seq: 1 },
      ]);

      await appendWithRetry(store.activities, {
        kind: 'update',
        asset: { ...one, tags: ['sea'], updatedAt: later(MINUTE) },
        expectedUpdatedAt: one.updatedAt,
      });
      await appendWithRetry(store.activities, { kind: 'delete', name: two.name, deletedAt: later(MINUTE) });

      expect(await tagged('art')).to.deep.equal({ names: [], count: 0 });
      expect(await tagged('sea')).to.deep.equal({ names: ['one'], count: 1 });
      expect(await tagged('über')).to.deep.equal({ names: [], count: 0 });
    });
  });
});
