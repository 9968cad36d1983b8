// Moving a store with `l2 store export` and `l2 store import`: 100,000 activities through memory → SQLite → a file
// → another SQLite file, every record compared; the command's refusals; a real service carried over to a new
// file, where its tokens, passwords, activities and signatures still work; and one carried from SQLite to
// PostgreSQL and back, the export the same bytes from either store.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openMemoryPersistence } from '../../src/adapters/persistence/memory/open-memory-persistence.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import type { RuleHost } from '../../src/domain/domain-rules.js';
import { EMPTY_PROFILE } from '../../src/domain/profile.js';
import { client, registerUser } from '../support/http.js';
import { TEST_SECRET } from '../support/test-server.js';
import { collect, streamOf, transferRecords } from '../support/transfer-records.js';
import { createAsset } from '../adapters/http/registry/support.js';
import { PASSWORD, startServer } from '../adapters/http/helpers.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';
import { freshDatabase, postgresAvailable } from '../support/postgres-cluster.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** What a server's transparency log serves: the checkpoint, the first tile and bundle, and entry 0, as bytes. */
async function transparencyLogOf(url: string) {
  const bytes = async (path: string, accept?: string) =>
    Buffer.from(
      await (await fetch(`${url}${path}`, accept ? { headers: { accept } } : {})).arrayBuffer(),
    ).toString('base64');
  return {
    checkpoint: await (await fetch(`${url}/tlog/checkpoint`)).text(),
    tile: await bytes('/tlog/tile/0/000.p/1'),
    bundle: await bytes('/tlog/tile/entries/000.p/1'),
    entry: await bytes('/activities/0', 'application/activity+json'),
  };
}

describe('moving a store with l2 store export / import', function () {
  this.timeout(180_000);
  let dir: string;
  const storeAt = (name: string) => `sqlite:${join(dir, name)}`;

  /** Runs `l2 …` on STORE; resolves with the exit code and what it printed. */
  async function l2(store: string, ...args: string[]) {
    const env = { ...process.env, SECRETS_DIR: dir, STORE: store, LOG_LEVEL: 'silent' };
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', CLI, ...args],
        {
          env,
          maxBuffer: 256 * 1024 * 1024,
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-transfer-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('carries 100,000 activities and every other record through memory, SQLite, a file and SQLite again, unchanged', async () => {
    const records = transferRecords({ users: 300, activities: 100_000 });

    const memory = openMemoryPersistence();
    await memory.transfer.import(streamOf(records));
    const first = openSqlitePersistence(join(dir, 'first.sqlite'));
    await first.transfer.import(memory.transfer.export());
    await first.close();

    const exported = await l2(storeAt('first.sqlite'), 'store', 'export', join(dir, 'export.jsonl'));
    expect(exported, exported.stderr).to.include({ code: 0 });
    const lines = readFileSync(join(dir, 'export.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).to.have.length(records.length + 2);
    expect(JSON.parse(lines.at(-1)!)).to.deep.equal({ end: true, records: records.length });

    const imported = await l2(storeAt('second.sqlite'), 'store', 'import', join(dir, 'export.jsonl'));
    expect(imported, imported.stderr).to.include({ code: 0 });
    expect(imported.stdout).to.match(/^imported users 300, .*activities 100,000/);

    const second = openSqlitePersistence(join(dir, 'second.sqlite'));
    try {
      expect(await collect(second.transfer.export())).to.deep.equal(records);
      expect(await second.activities.nextIdx()).to.equal(100_000);
    } finally {
      await second.close();
    }
  });

  it('refuses, in one line and with exit 1, a store that is not empty, a file cut short, and an existing file', async () => {
    const records = transferRecords({ users: 5, activities: 40 });
    const source = openSqlitePersistence(join(dir, 'source.sqlite'));
    await source.transfer.import(streamOf(records));
    await source.close();
    expect((await l2(storeAt('source.sqlite'), 'store', 'export', join(dir, 'all.jsonl'))).code).to.equal(0);

    const again = await l2(storeAt('source.sqlite'), 'store', 'export', join(dir, 'all.jsonl'));
    expect(again.code).to.equal(1);
    expect(again.stderr.trim().split('\n')).to.have.length(1);

    const notEmpty = await l2(storeAt('source.sqlite'), 'store', 'import', join(dir, 'all.jsonl'));
    expect(notEmpty.code).to.equal(1);
    expect(notEmpty.stderr).to.match(/^l2: the store is not empty/);

    const whole = readFileSync(join(dir, 'all.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(dir, 'cut.jsonl'), `${whole.slice(0, -5).join('\n')}\n`);
    const cut = await l2(storeAt('target.sqlite'), 'store', 'import', join(dir, 'cut.jsonl'));
    expect(cut.code).to.equal(1);
    expect(cut.stderr).to.match(/^l2: line \d+: the file ends without its end line: it was cut short\n$/);
    const target = openSqlitePersistence(join(dir, 'target.sqlite'));
    try {
      expect(await target.users.count(), 'nothing written').to.equal(0);
      expect(await target.activities.nextIdx()).to.equal(0);
    } finally {
      await target.close();
    }

    writeFileSync(join(dir, 'bad.jsonl'), `${whole[0]}\n{"record":"user","username":"x"}\n`);
    const bad = await l2(storeAt('target.sqlite'), 'store', 'import', join(dir, 'bad.jsonl'));
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^l2: line 2: not a record: passwordHash/);
  });

  it('imports a file exported before accounts could be disabled: its accounts are enabled', async () => {
    const source = openSqlitePersistence(join(dir, 'source.sqlite'));
    await source.transfer.import(streamOf(transferRecords({ users: 5, activities: 3 })));
    await source.close();
    expect((await l2(storeAt('source.sqlite'), 'store', 'export', join(dir, 'new.jsonl'))).code).to.equal(0);
    const lines = readFileSync(join(dir, 'new.jsonl'), 'utf8').trimEnd().split('\n');
    const old = lines.map((line) => line.replace(/,"disabledAt":(null|"[^"]*")/, ''));
    expect(old.filter((line, i) => line !== lines[i])).to.have.length(5);
    writeFileSync(join(dir, 'old.jsonl'), `${old.join('\n')}\n`);

    expect((await l2(storeAt('target.sqlite'), 'store', 'import', join(dir, 'old.jsonl'))).code).to.equal(0);
    const target = openSqlitePersistence(join(dir, 'target.sqlite'));
    try {
      const users = await target.users.listOlder(null, 10);
      expect(users.map((u) => u.value.disabledAt)).to.deep.equal([null, null, null, null, null]);
    } finally {
      await target.close();
    }
  });

  it('imports a file of version 1, exported before profiles and alt text: empty profiles, no alt text, not sensitive', async () => {
    const source = openSqlitePersistence(join(dir, 'source.sqlite'));
    await source.transfer.import(streamOf(transferRecords({ users: 5, activities: 12 })));
    await source.close();
    expect((await l2(storeAt('source.sqlite'), 'store', 'export', join(dir, 'new.jsonl'))).code).to.equal(0);
    const lines = readFileSync(join(dir, 'new.jsonl'), 'utf8').trimEnd().split('\n');
    const old = lines.map((line, i) => {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (i === 0) return JSON.stringify({ ...value, version: 1 });
      for (const field of ['profile', 'profileVersion', 'altText', 'sensitive']) delete value[field];
      return JSON.stringify(value);
    });
    expect(old.filter((line) => /"(profile|profileVersion|altText|sensitive)"/.test(line))).to.deep.equal([]);
    writeFileSync(join(dir, 'old.jsonl'), `${old.join('\n')}\n`);

    const imported = await l2(storeAt('target.sqlite'), 'store', 'import', join(dir, 'old.jsonl'));
    expect(imported, imported.stderr).to.include({ code: 0 });
    const target = openSqlitePersistence(join(dir, 'target.sqlite'));
    try {
      const users = await target.users.listOlder(null, 10);
      expect(users.map((u) => [u.value.profile, u.value.profileVersion])).to.deep.equal(
        users.map(() => [EMPTY_PROFILE, 0]),
      );
      const assets = await target.assets.listOlder({}, null, 100);
      expect(assets).to.not.deep.equal([]);
      expect(assets.filter((a) => a.value.altText !== null || a.value.sensitive)).to.deep.equal([]);
    } finally {
      await target.close();
    }
  });

  it('refuses, in one line, a file whose entries do not give the root of its checkpoint, writing nothing', async () => {
    const source = openSqlitePersistence(join(dir, 'source.sqlite'));
    await source.transfer.import(streamOf(transferRecords({ users: 3, activities: 20 })));
    await source.close();
    expect((await l2(storeAt('source.sqlite'), 'store', 'export', join(dir, 'all.jsonl'))).code).to.equal(0);
    const lines = readFileSync(join(dir, 'all.jsonl'), 'utf8').trimEnd().split('\n');
    const changed = lines.map((line) =>
      line.includes('"idx":7,') ? line.replace('\\"n\\":7', '\\"n\\":70') : line,
    );
    expect(changed.filter((line, i) => line !== lines[i])).to.have.length(1);
    writeFileSync(join(dir, 'changed.jsonl'), `${changed.join('\n')}\n`);

    const refused = await l2(storeAt('target.sqlite'), 'store', 'import', join(dir, 'changed.jsonl'));

    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(
      /^l2: the imported activities do not give the root of the checkpoint of size 20: an entry differs from the one signed\n$/,
    );
    const target = openSqlitePersistence(join(dir, 'target.sqlite'));
    try {
      expect(await target.activities.nextIdx(), 'nothing written').to.equal(0);
      expect(await target.transparencyLog.state()).to.deep.equal({ size: 0, origin: null, checkpoint: null });
    } finally {
      await target.close();
    }
  });

  it('explains itself with --help, and refuses an unknown command or option with exit 2', async () => {
    const help = await l2(storeAt('x.sqlite'), 'store', 'import', '--help');
    expect(help.code).to.equal(0);
    expect(help.stdout).to.match(/^usage: l2 store import \[FILE\]\n\n.*must be new and empty/s);
    expect((await l2(storeAt('x.sqlite'), 'store', 'copy')).code).to.equal(2);
    const option = await l2(storeAt('x.sqlite'), 'store', 'export', '--gzip');
    expect(option.code).to.equal(2);
    expect(option.stderr).to.match(/^l2: Unknown option '--gzip'/);
  });

  it('moves a real service: on the new store its tokens verify, its users log in, its log and signatures are the same, its transparency log serves the same checkpoint, tiles and entries', async () => {
    const oldDir = mkdtempSync(join(tmpdir(), 'l2-old-'));
    const old = await startServer('sqlite', { dir: oldDir });
    const api = client(old.url);
    const alice = await registerUser(old.url, 'alice', PASSWORD);
    const created = await createAsset(api, alice, 'sunset');
    const revoked = (await api.post('/auth/login', { username: 'alice', password: PASSWORD })).json
      .access_token as string;
    await api.post('/auth/logout', {}, { token: revoked });
    const activityBefore = (
      await api.get('/activities/0', { headers: { accept: 'application/activity+json' } })
    ).json;
    const logBefore = await transparencyLogOf(old.url);
    expect(logBefore.checkpoint).to.match(/^l2\.test\/tlog\n1\n/);
    await old.close();

    const oldStore = `sqlite:${join(oldDir, 'l2.sqlite')}`;
    const out = await l2(oldStore, 'store', 'export', join(dir, 'move.jsonl'));
    rmSync(oldDir, { recursive: true, force: true });
    expect(out, out.stderr).to.include({ code: 0 });
    const moved = mkdtempSync(join(tmpdir(), 'l2-moved-'));
    try {
      const into = await l2(`sqlite:${join(moved, 'l2.sqlite')}`, 'store', 'import', join(dir, 'move.jsonl'));
      expect(into, into.stderr).to.include({ code: 0 });

      const now = await startServer('sqlite', { dir: moved });
      try {
        const api2 = client(now.url);
        expect((await api2.post('/auth/verify', { token: alice })).status).to.equal(200);
        const afterLogout = await api2.post('/auth/verify', { token: revoked });
        expect(afterLogout.json.code, afterLogout.text).to.equal('token_revoked');
        expect((await api2.post('/auth/login', { username: 'alice', password: PASSWORD })).status).to.equal(
          200,
        );
        const activityAfter = (
          await api2.get('/activities/0', { headers: { accept: 'application/activity+json' } })
        ).json;
        expect(activityAfter).to.deep.equal(activityBefore);
        expect(activityAfter.id).to.equal(created.activity.id);
        expect(
          await transparencyLogOf(now.url),
          'the same checkpoint, tiles, bundle and entry',
        ).to.deep.equal(logBefore);
        const next = await createAsset(api2, alice, 'sunrise');
        expect(next.activity.idx, 'the log goes on where it was').to.equal(1);
      } finally {
        await now.close();
      }
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  it('moves a real service from SQLite to PostgreSQL and back: the same export bytes from each, and on PostgreSQL its tokens verify, its log, checkpoint, tiles and entries are the same', async function () {
    if (!postgresAvailable()) this.skip();
    const oldDir = mkdtempSync(join(tmpdir(), 'l2-old-'));
    const old = await startServer('sqlite', { dir: oldDir, storeInternals: true });
    const api = client(old.url);
    const alice = await registerUser(old.url, 'alice', PASSWORD);
    await createAsset(api, alice, 'sunset');
    await createAsset(api, alice, 'sunrise');
    const revoked = (await api.post('/auth/login', { username: 'alice', password: PASSWORD })).json
      .access_token as string;
    await api.post('/auth/logout', {}, { token: revoked });
    const logBefore = await transparencyLogOf(old.url);
    await old.close();
    // The operator's domain rules go along (format 4), each host's key made again by the store it lands in.
    const rules = openSqlitePersistence(join(oldDir, 'l2.sqlite'));
    await rules.domainRules.blockMany(['spam.example', '203.0.113.9'] as RuleHost[], new Date());
    await rules.domainRules.allow('friends.example' as RuleHost, new Date());
    await rules.close();
    const scratch = await freshDatabase();
    const again = mkdtempSync(join(tmpdir(), 'l2-again-'));
    try {
      const fromSqlite = await l2(
        `sqlite:${join(oldDir, 'l2.sqlite')}`,
        'store',
        'export',
        join(dir, 'a.jsonl'),
      );
      expect(fromSqlite, fromSqlite.stderr).to.include({ code: 0 });
      const into = await l2(scratch.url, 'store', 'import', join(dir, 'a.jsonl'));
      expect(into, into.stderr).to.include({ code: 0 });
      const fromPostgres = await l2(scratch.url, 'store', 'export', join(dir, 'b.jsonl'));
      expect(fromPostgres, fromPostgres.stderr).to.include({ code: 0 });
      const back = await l2(`sqlite:${join(again, 'l2.sqlite')}`, 'store', 'import', join(dir, 'b.jsonl'));
      expect(back, back.stderr).to.include({ code: 0 });
      expect(
        (await l2(`sqlite:${join(again, 'l2.sqlite')}`, 'store', 'export', join(dir, 'c.jsonl'))).code,
      ).to.equal(0);
      // The header line says when the file was written; every record after it is the same bytes.
      const records = (file: string) => readFileSync(join(dir, file), 'utf8').split('\n').slice(1).join('\n');
      expect(records('a.jsonl').match(/"record":"domain_rule"/g)).to.have.length(3);
      expect(records('b.jsonl'), 'PostgreSQL exports what SQLite did').to.equal(records('a.jsonl'));
      expect(records('c.jsonl'), 'and SQLite again').to.equal(records('a.jsonl'));

      const now = await startServer('sqlite', { dir: oldDir, env: { STORE: scratch.url } });
      try {
        expect(
          (await now.parts.store.domainRules.list()).map((r) => `${r.kind} ${r.host}`).sort(),
        ).to.deep.equal(['allow friends.example', 'block 203.0.113.9', 'block spam.example']);
        const api2 = client(now.url);
        expect((await api2.post('/auth/verify', { token: alice })).status).to.equal(200);
        expect((await api2.post('/auth/verify', { token: revoked })).json.code).to.equal('token_revoked');
        expect(
          await transparencyLogOf(now.url),
          'the same checkpoint, tiles, bundle and entry',
        ).to.deep.equal(logBefore);
        expect(
          (await createAsset(api2, alice, 'noon')).activity.idx,
          'the log goes on where it was',
        ).to.equal(2);
      } finally {
        await now.close();
      }
    } finally {
      await scratch.drop();
      rmSync(oldDir, { recursive: true, force: true });
      rmSync(again, { recursive: true, force: true });
    }
  });
});
