import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MIGRATIONS } from '../../src/adapters/persistence/sqlite/migrations.js';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { aRevocation, aUsername } from '../support/builders.js';
import { TEST_SECRET } from '../support/test-server.js';
import { streamOf, transferRecords } from '../support/transfer-records.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

describe('the l2 command', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-cli-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
    env = {
      ...process.env,
      SECRETS_DIR: dir,
      STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
      LOG_LEVEL: 'silent',
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('`revocations cleanup` removes expired revocation records and keeps live ones', async () => {
    const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
    const past = new Date(Date.now() - 10 * 60_000); // past the clean-up's 5-minute clock margin
    const future = new Date(Date.now() + 3600_000);
    const expired = aRevocation({ username: aUsername('alice'), expiresAt: past });
    const live = aRevocation({ username: aUsername('alice'), expiresAt: future });
    await store.revocations.revoke([expired, live], new Date());
    await store.close();

    const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, 'revocations', 'cleanup'], {
      env,
    });
    expect(stdout).to.match(/^removed 1 expired revocation records/);

    const reopened = openSqlitePersistence(join(dir, 'l2.sqlite'));
    try {
      expect(await reopened.revocations.isRevoked(expired.record.tokenHash)).to.equal(false);
      expect(await reopened.revocations.isRevoked(live.record.tokenHash)).to.equal(true);
    } finally {
      await reopened.close();
    }
  });

  it('`revocations cleanup` also forgets failed-login counters whose window is over', async () => {
    const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
    store.db.exec(
      'CREATE TABLE login_failures (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)',
    );
    const insert = store.db.prepare('INSERT INTO login_failures (key, points, expire) VALUES (?, ?, ?)');
    insert.run('login_user:old', 3, Date.now() - 60_000);
    insert.run('login_user:live', 2, Date.now() + 600_000);
    await store.close();

    await run(process.execPath, ['--import', 'tsx', CLI, 'revocations', 'cleanup'], { env });

    const reopened = openSqlitePersistence(join(dir, 'l2.sqlite'));
    try {
      const keys = reopened.db.prepare('SELECT key FROM login_failures').all() as { key: string }[];
      expect(keys.map((k) => k.key)).to.deep.equal(['login_user:live']);
    } finally {
      await reopened.close();
    }
  });

  it('`store migrate` brings a new store to the latest schema, and does nothing more the second time', async () => {
    const cli = () => run(process.execPath, ['--import', 'tsx', CLI, 'store', 'migrate'], { env });
    const first = await cli();
    const versions = MIGRATIONS.map((m) => m.version);
    expect(first.stdout).to.equal(
      `SQLite schema at version ${versions.at(-1)} (migrations ${versions.join(', ')} applied)\n`,
    );
    expect((await cli()).stdout).to.equal(first.stdout);
  });

  describe('on a store with users', () => {
    const FAR = '2099-01-01T00:00:00.000Z';
    const l2 = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', CLI, ...args], { env }).catch(
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    beforeEach(async () => {
      const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
      const records = transferRecords({ users: 4, activities: 12 }).map((r) =>
        r.record === 'issued_token' ? { ...r, expiresAt: FAR } : r,
      );
      await store.transfer.import(streamOf(records));
      await store.close();
    });

    it('`users list` lists the live accounts newest first, with their state', async () => {
      const { stdout } = await l2('users', 'list');
      expect(
        stdout
          .trim()
          .split('\n')
          .map((line) => [line.split('\t')[0], line.split('\t')[2]]),
      ).to.deep.equal([
        ['user_3', 'disabled'],
        ['user_2', 'active'],
        ['user_1', 'active'],
        ['user_0', 'active'],
      ]);
    });

    it('`users show` describes one account without its credentials, and refuses an unknown one in one line', async () => {
      const { stdout } = await l2('users', 'show', 'USER_1');
      expect(stdout).to.match(/^username {5}user_1\n/);
      expect(stdout).to.match(/^tokens {7}1 sessions, 1 scoped to L1 servers/m);
      expect(stdout).not.to.match(/PRIVATE KEY|\$2b\$/);
      const unknown = (await l2('users', 'show', 'nobody')) as { code: number; stderr: string };
      expect([unknown.code, unknown.stderr]).to.deep.equal([1, 'l2: there is no user nobody\n']);
      expect(((await l2('users', 'show')) as { code: number }).code).to.equal(2);
    });

    it('`users disable` and `users enable` change an account, and refuse an unknown or deleted one in one line', async function () {
      // Eight CLI processes, each compiling the CLI with tsx: seconds apiece on a busy two-core machine.
      // user_3 arrives disabled from the export; user_2 is deleted here.
      const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
      store.db.prepare("UPDATE users SET deleted_at = 1 WHERE username = 'user_2'").run();
      await store.close();

      expect((await l2('users', 'enable', 'user_3')).stdout).to.equal('enabled user_3\n');
      expect((await l2('users', 'show', 'user_3')).stdout).to.match(/^state {8}active$/m);
      expect((await l2('users', 'disable', 'user_1')).stdout).to.equal(
        'disabled user_1; revoked 2 tokens (L1 servers are told from the queue)\n',
      );
      expect((await l2('users', 'show', 'user_1')).stdout).to.match(/^state {8}disabled$/m);

      for (const command of ['disable', 'enable']) {
        const deleted = (await l2('users', command, 'user_2')) as { code: number; stderr: string };
        expect([deleted.code, deleted.stderr]).to.deep.equal([1, 'l2: user_2 is deleted\n']);
        const nobody = (await l2('users', command, 'nobody')) as { code: number; stderr: string };
        expect([nobody.code, nobody.stderr]).to.deep.equal([1, 'l2: there is no user nobody\n']);
        const missing = (await l2('users', command)) as { code: number; stderr: string };
        expect([missing.code, missing.stderr]).to.deep.equal([
          2,
          `l2: missing operand\nusage: l2 users ${command} USER\n`,
        ]);
        expect((await l2('users', command, '--help')).stdout).to.match(
          new RegExp(`^usage: l2 users ${command} USER\n\n\\S`),
        );
      }
    });

    it('`tokens revoke --user` ends the sessions and the scoped tokens they created, with notices', async () => {
      const session = 'f4241'.padStart(64, '0');
      const scoped = '1e8481'.padStart(64, '0');
      const revoked = async (hash: string) => {
        const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
        try {
          return [await store.revocations.isRevoked(hash), (await store.queueAdministration.stats()).pending];
        } finally {
          await store.close();
        }
      };
      const before = (await revoked(session))[1] as number;
      expect((await l2('tokens', 'revoke', '--user', 'user_1')).stdout).to.equal(
        'revoked 2 tokens of user_1 (L1 servers are told from the queue)\n',
      );
      // The scoped token went with its session, and its L1 server has a notice queued.
      expect([await revoked(session), await revoked(scoped)]).to.deep.equal([
        [true, before + 1],
        [true, before + 1],
      ]);
      // --everywhere is still accepted: nothing is left to revoke.
      expect((await l2('tokens', 'revoke', '--user', 'user_1', '--everywhere')).stdout).to.match(
        /^revoked 0 tokens of user_1/,
      );

      const nobody = (await l2('tokens', 'revoke', '--user', 'nobody')) as { code: number; stderr: string };
      expect([nobody.code, nobody.stderr]).to.deep.equal([1, 'l2: there is no user nobody\n']);
      const missing = (await l2('tokens', 'revoke')) as { code: number; stderr: string };
      expect([missing.code, missing.stderr]).to.deep.equal([1, 'l2: give the user: --user USER\n']);
      expect(((await l2('tokens', 'revoke', '--usr', 'x')) as { code: number }).code).to.equal(2);
    });
  });

  it('`queue list`, `queue retry` and `queue drop` show the outbound jobs and deal with the abandoned ones', async () => {
    const store = openSqlitePersistence(join(dir, 'l2.sqlite'));
    const notice = (n: number) => ({
      kind: 'revocation_notice',
      payload: { n },
      lane: `https://l1-${n}.example`,
    });
    await store.jobs.enqueue(
      [notice(1), notice(2), { kind: 'activity_delivery', payload: { n: 3 }, lane: null }],
      new Date(),
    );
    const claimed = await store.jobs.claim({ now: new Date(), leaseMs: 60_000, limit: 1, leaseId: 'l' });
    await store.jobs.abandon(claimed[0]!, 'answered 410');
    await store.close();
    const l2 = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', CLI, ...args], { env }).catch(
        (e: { code: number; stdout: string; stderr: string }) => e,
      );

    const listed = (await l2('queue', 'list')).stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.split('\t'));
    expect(listed.map((columns) => [columns[1], columns[2], columns[6]])).to.deep.equal([
      ['revocation_notice', 'abandoned', 'answered 410'],
      ['revocation_notice', 'pending', ''],
      ['activity_delivery', 'pending', ''],
    ]);
    expect(
      (await l2('queue', 'list', '--kind', 'activity_delivery')).stdout.trim().split('\n'),
    ).to.have.length(1);
    const badKind = (await l2('queue', 'list', '--kind', 'mail')) as { code: number; stderr: string };
    expect([badKind.code, badKind.stderr]).to.deep.equal([
      1,
      'l2: --kind: one of revocation_notice, activity_delivery, document_delivery, profile_update\n',
    ]);

    expect((await l2('queue', 'retry', '--kind', 'revocation_notice')).stdout).to.equal(
      'put 1 abandoned jobs back in the queue\n',
    );
    expect((await l2('queue', 'drop')).stdout).to.equal('dropped 0 abandoned jobs\n');
    const reopened = openSqlitePersistence(join(dir, 'l2.sqlite'));
    try {
      expect(await reopened.queueAdministration.stats()).to.deep.equal({ pending: 3, abandoned: 0 });
    } finally {
      await reopened.close();
    }
  });

  it('prints its usage and exits 2 for an unknown command', async () => {
    const failure = await run(process.execPath, ['--import', 'tsx', CLI, 'frobnicate'], { env }).catch(
      (e) => e,
    );
    expect(failure.code).to.equal(2);
    expect(failure.stderr).to.match(/^l2: unknown command 'frobnicate'\nusage:\n/);
    for (const usage of ['l2 revocations cleanup', 'l2 store export [FILE]', 'l2 store import [FILE]'])
      expect(failure.stderr).to.contain(usage);
  });

  it('explains every command with --help, on standard output, and exits 0', async function () {
    // One process per command, each compiling the CLI with tsx: seconds apiece on a busy two-core machine.
    const usage = (await run(process.execPath, ['--import', 'tsx', CLI, '--help'], { env })).stdout;
    const commands = usage
      .split('\n')
      .filter((line) => line.startsWith('  l2 '))
      .map((line) =>
        line
          .trim()
          .split(' ')
          .slice(1)
          .filter((word) => /^[a-z]+$/.test(word)),
      );
    expect(commands).to.have.length(22);
    for (const words of commands) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, ...words, '--help'], { env });
      expect(stdout, words.join(' ')).to.match(new RegExp(`^usage: l2 ${words.join(' ')}[^\n]*\n\n\\S`));
    }
  });

  it('prints its usage on standard output with --help alone, and exits 0', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, '--help'], { env });
    expect(stdout).to.match(/^usage:\n {2}l2 revocations cleanup\n/);
    expect(stdout).to.contain('  l2 users disable USER\n');
    expect(stdout).to.contain('  l2 users reset USER [--clear-factors]\n');
  });

  it('refuses the memory store in one line: it lives inside the server process', async () => {
    const failure = await run(process.execPath, ['--import', 'tsx', CLI, 'users', 'list'], {
      env: { ...env, STORE: 'memory:' },
    }).catch((e) => e);
    expect([failure.code, failure.stderr]).to.deep.equal([
      1,
      'l2: STORE=memory: lives inside the server process; point STORE at its sqlite: or mongodb:// store\n',
    ]);
  });

  it('`secret rotate` opens no store, and warns when a previous secret would be replaced', async () => {
    const rotate = () => run(process.execPath, ['--import', 'tsx', CLI, 'secret', 'rotate'], { env });
    expect((await rotate()).stdout).not.to.contain('stop verifying');
    expect(existsSync(join(dir, 'l2.sqlite')), 'no store file created').to.equal(false);
    writeFileSync(join(dir, 'jwt_secret.previous'), 'an-older-secret-0123456789-abcdefghijklmnop');
    expect((await rotate()).stdout).to.match(
      /Steps 2 and 3 replace jwt_secret\.previous: tokens signed with \S+ stop verifying/,
    );
  });

  it('`secret rotate` names the notice signing key by its thumbprint and gives its steps', async () => {
    const pem = readFileSync(join(dir, 'notice_signing_key'), 'utf8');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, 'secret', 'rotate'], { env });
    const kid = await calculateJwkThumbprint(createPublicKey(pem).export({ format: 'jwk' }) as JWK);
    expect(stdout).to.contain(`The notice signing key is ${kid} (notice_signing_key in SECRETS_DIR`);
    expect(stdout).to.contain('cp notice_signing_key.new notice_signing_key.previous');
  });

  it('`secret rotate` names the ID-token signing key by its thumbprint and gives its steps', async () => {
    const pem = readFileSync(join(dir, 'id_token_signing_key'), 'utf8');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, 'secret', 'rotate'], { env });
    const kid = await calculateJwkThumbprint(createPublicKey(pem).export({ format: 'jwk' }) as JWK);
    expect(stdout).to.contain(`The ID-token signing key is ${kid} (id_token_signing_key in SECRETS_DIR`);
    expect(stdout).to.contain('cp id_token_signing_key.new id_token_signing_key.previous');
  });

  it('refuses to run with a one-line reason when the configuration is bad', async () => {
    const failure = await run(process.execPath, ['--import', 'tsx', CLI, 'revocations', 'cleanup'], {
      env: { ...env, BCRYPT_COST: 'lots' },
    }).catch((e) => e);
    expect(failure.code).to.equal(1);
    expect(failure.stderr.trim()).to.match(/^l2: BCRYPT_COST: [^\n]+$/);
  });
});
