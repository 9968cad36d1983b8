// `l2 domains …` (API.md §4.3), run as an operator runs it: the command spawned on a SQLite store.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openSqlitePersistence } from '../../src/adapters/persistence/sqlite/open-sqlite-persistence.js';
import { activityDeliveryJob } from '../../src/domain/jobs.js';
import { aFollower, anAcceptJob, T0 } from '../support/builders.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

type Ran = { code: number; stdout: string; stderr: string };

describe('the l2 domains commands', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const store = () => openSqlitePersistence(join(dir, 'l2.sqlite'));
  const l2 = async (...args: string[]): Promise<Ran> => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'l2-domains-'));
    writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(dir);
    writeIdTokenKey(dir);
    writeTestTlogKey(dir);
    env = {
      ...process.env,
      SECRETS_DIR: dir,
      STORE: `sqlite:${join(dir, 'l2.sqlite')}`,
      PUBLIC_URL: 'https://l2.example.com',
      LOG_LEVEL: 'silent',
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses what is no host, and PUBLIC_URL’s own, with exit status 2 and one line', async () => {
    for (const given of ['https://bad.example', '*.bad.example', 'l2.example.com']) {
      const ran = await l2('domains', 'block', given);
      expect(ran.code, given).to.equal(2);
      expect(ran.stderr.trim().split('\n'), given).to.have.length(1);
      expect(ran.stderr, given).to.match(/^l2: /);
    }
    expect((await l2('domains', 'block')).code).to.equal(2);
    expect((await l2('domains', 'list')).stdout).to.equal('mode blocklist\n');
  });

  it('blocks a domain in one write — its followers removed, its queued deliveries dropped — and says so; again is harmless', async () => {
    const seeded = store();
    const gone = aFollower({
      actor: 'https://social.bad.example/users/a',
      inbox: 'https://social.bad.example/users/a/inbox',
    });
    const kept = aFollower({
      actor: 'https://good.example/users/b',
      inbox: 'https://good.example/users/b/inbox',
    });
    for (const f of [gone, kept]) await seeded.followers.add(f, anAcceptJob(f), T0);
    await seeded.jobs.enqueue([activityDeliveryJob(1, 'https://bad.example/inbox')], T0);
    await seeded.close();

    const first = await l2('domains', 'block', 'BAD.example.');
    expect(first).to.deep.include({
      code: 0,
      stdout: 'blocked bad.example: 1 follower removed, 2 queued deliveries dropped\n',
    });
    expect((await l2('domains', 'block', 'bad.example')).stdout).to.equal(
      'bad.example was already blocked: 0 followers removed, 0 queued deliveries dropped\n',
    );

    const after = store();
    try {
      expect(
        (await after.followers.listOlder({ username: kept.username }, null, 10)).map((e) => e.value.actor),
      ).to.deep.equal([kept.actor]);
      expect(
        (await after.queueAdministration.list({ kind: null, limit: 10 }, T0)).map((j) => j.lane),
      ).to.deep.equal(['https://good.example']);
    } finally {
      await after.close();
    }
  });

  it('unblocks, allows and disallows, each idempotent, and lists the rules with the mode (text and JSON)', async () => {
    expect((await l2('domains', 'unblock', 'bad.example')).stdout).to.equal('bad.example was not blocked\n');
    await l2('domains', 'block', 'bad.example');
    expect((await l2('domains', 'allow', 'bücher.example')).stdout).to.equal(
      'allowed xn--bcher-kva.example\n',
    );
    expect((await l2('domains', 'allow', 'xn--bcher-kva.example')).stdout).to.equal(
      'xn--bcher-kva.example was already allowed\n',
    );
    await l2('domains', 'allow', '10.0.0.1');
    expect((await l2('domains', 'disallow', '10.0.0.1')).stdout).to.equal('disallowed 10.0.0.1\n');
    expect((await l2('domains', 'disallow', '10.0.0.1')).stdout).to.equal('10.0.0.1 was not allowed\n');

    const text = (await l2('domains', 'list')).stdout.trim().split('\n');
    expect(text[0]).to.equal('mode blocklist');
    expect(text.slice(1).map((line) => line.split(' ').slice(0, 2).join(' '))).to.deep.equal([
      'block bad.example',
      'allow xn--bcher-kva.example',
    ]);
    expect(text[1]).to.match(/^block bad\.example \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    env.FEDERATION_MODE = 'allowlist';
    const json = JSON.parse((await l2('domains', 'list', '--json')).stdout) as {
      mode: string;
      rules: { kind: string; host: string; created_at: string }[];
    };
    expect(json.mode).to.equal('allowlist');
    expect(json.rules.map((r) => [r.kind, r.host])).to.deep.equal([
      ['block', 'bad.example'],
      ['allow', 'xn--bcher-kva.example'],
    ]);
    expect(await l2('domains', 'unblock', 'bad.example')).to.deep.include({
      code: 0,
      stdout: 'unblocked bad.example\n',
    });
  });

  it('imports the suspend rows of a Mastodon domain-block export in one write, counting what it skipped', async () => {
    const file = join(dir, 'blocks.csv');
    writeFileSync(
      file,
      '\uFEFF#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate\r\n' +
        'spam.example,suspend,true,true,"spam, ""lots"" of it\r\nand more",false\r\n' +
        'loud.example,silence,false,false,,false\r\n' +
        'quiet.example,noop,true,false,,false\r\n' +
        'already.example,suspend,false,false,,false\r\n' +
        '*.wild.example,suspend,false,false,,false\r\n' +
        'evil.example,suspend,false,false,,true\r\n',
    );
    await l2('domains', 'block', 'already.example');

    const ran = await l2('domains', 'import', file);

    expect(ran.code).to.equal(0);
    const [summary, ...reasons] = ran.stdout.trim().split('\n');
    expect(summary).to.equal(
      'added 2, skipped 4 (2 not suspend, 1 already blocked, 1 not a host): 0 followers removed, 0 queued deliveries dropped',
    );
    expect(reasons).to.have.length(1);
    expect(reasons[0]).to.match(/^skipped \*\.wild\.example: /);
    const hosts = JSON.parse((await l2('domains', 'list', '--json')).stdout) as { rules: { host: string }[] };
    expect(hosts.rules.map((r) => r.host)).to.have.members([
      'already.example',
      'spam.example',
      'evil.example',
    ]);
  });

  it('refuses a file that is no domain-block export with exit status 2, blocking nothing', async () => {
    const file = join(dir, 'blocks.csv');
    writeFileSync(file, 'spam.example,suspend\n');

    const ran = await l2('domains', 'import', file);

    expect(ran.code).to.equal(2);
    expect(ran.stderr.trim().split('\n')).to.have.length(1);
    expect((await l2('domains', 'list')).stdout).to.equal('mode blocklist\n');
  });
});
