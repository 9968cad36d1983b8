// `l2 tlog verify <PUBLIC_URL> --key … [--state FILE] [--full]`: a monitor of any L2's log from outside — against a
// real service, then against logs served to misbehave (a fork, a shrunk log, a changed tile, another key).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ed25519KeyPairFromPkcs8Pem, generateEd25519Pkcs8Pem } from '@l2/tlog/node-crypto';
import { appendActivities } from '../contract/transparency-log.contract.js';
import { MisbehavingLogServer } from '../support/misbehaving-log-server.js';
import { growServedLog, startServedLog } from '../support/served-log.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { testVerifierKey } from '../support/tlog-test-key.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** Runs `l2 tlog verify …` (no STORE, no SECRETS_DIR: it needs neither); resolves with the exit code and output. */
async function verify(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    STORE: 'sqlite:/nonexistent/never-opened.sqlite',
    SECRETS_DIR: '/nonexistent',
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', CLI, 'tlog', 'verify', ...args],
      {
        env,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('l2 tlog verify', function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'l2-tlog-verify-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('against a running L2', () => {
    let server: TestServer;
    let key: string;
    before(async () => ({ server, verifierKey: key } = await startServedLog(600)));
    after(() => server?.close());

    it('checks the log, saves its state, then checks only what is new and that it extends what was saved', async () => {
      const state = join(dir, 'state.json');
      const first = await verify(server.url, '--key', key, '--state', state);
      expect(first, first.stderr).to.include({ code: 0 });
      expect(first.stdout).to.match(
        /^ok: 127\.0\.0\.1:\d+\/tlog size 600 root \S+ \(first check; 600 entries and \d+ tiles checked\)\n$/,
      );
      expect(JSON.parse(readFileSync(state, 'utf8'))).to.deep.include({ size: 600 });

      await growServedLog(server, 30);
      const second = await verify(server.url, '--key', key, '--state', state);
      expect(second, second.stderr).to.include({ code: 0 });
      expect(second.stdout).to.match(/size 630 .*\(consistent with size 600; (\d+) entries/);
      expect(Number(/; (\d+) entries/.exec(second.stdout)![1]), 'only the new bundle was read').to.be.below(
        600,
      );

      const full = await verify(server.url, '--key', key, '--state', state, '--full');
      expect(full.stdout).to.match(/size 630 .*\(consistent with size 630; 630 entries/);
    });

    it('takes the key from a file, and works without a state file', async () => {
      writeFileSync(join(dir, 'l2.vkey'), `${key}\n`);
      const checked = await verify(server.url, '--key', join(dir, 'l2.vkey'));
      expect(checked, checked.stderr).to.include({ code: 0 });
      expect(checked.stdout).to.match(/first check/);
    });

    it('says in one line, exit 1, when it cannot check: a key of another log, an unreachable URL', async () => {
      const other = await verify(server.url, '--key', testVerifierKey('elsewhere.example/tlog'));
      expect(other.code).to.equal(1);
      expect(other.stderr).to.match(
        /^l2: not checked: the key is for elsewhere\.example\/tlog, the URL's log is 127\.0\.0\.1:\d+\/tlog\n$/,
      );
      const down = await verify('http://127.0.0.1:1', '--key', testVerifierKey('127.0.0.1:1/tlog'));
      expect(down.code).to.equal(1);
      expect(down.stderr).to.match(/^l2: not checked: http:\/\/127\.0\.0\.1:1\/tlog\/checkpoint: /);
      const noKey = await verify(server.url);
      expect(noKey.code).to.equal(2);
    });
  });

  it('reads the log from a mirror with --from, checking it as the log of PUBLIC_URL', async () => {
    const server = await startTestServer({ store: 'memory' });
    try {
      await appendActivities(server.parts.store, 20);
      await server.parts.services.transparencyLog.cover(20);
      const checked = await verify(
        'http://l2.test',
        '--key',
        testVerifierKey(),
        '--from',
        `${server.url}/tlog`,
      );
      expect(checked, checked.stderr).to.include({ code: 0 });
      expect(checked.stdout).to.match(/^ok: l2\.test\/tlog size 20 /);
      const bad = await verify('http://l2.test', '--key', testVerifierKey(), '--from', 'ftp://mirror');
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.equal('l2: --from: ftp://mirror is not an http(s) URL\n');
    } finally {
      await server.close();
    }
  });

  describe('against a log that misbehaves', () => {
    let misbehaving: MisbehavingLogServer;
    before(async () => (misbehaving = await new MisbehavingLogServer().start()));
    after(() => misbehaving.close());

    it('reports a fork at the same size, exit 3, with both checkpoints as evidence, and keeps the saved state', async () => {
      const state = join(dir, 'state.json');
      misbehaving.serve(300, 'honest');
      expect(
        (await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--state', state)).code,
      ).to.equal(0);
      const saved = readFileSync(state, 'utf8');
      const honest = misbehaving.log.sign();

      misbehaving.serve(300, 'rewritten');
      const forked = await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--state', state);

      expect(forked.code).to.equal(3);
      expect(forked.stderr).to.match(
        /^l2: MISBEHAVED: FORK: the log signed a tree that does not extend the one of size 300/,
      );
      expect(forked.stderr).to.contain(`signed before:\n${honest}`);
      expect(forked.stderr).to.contain(`signed now:\n${misbehaving.log.sign()}`);
      expect(readFileSync(state, 'utf8'), 'the state is kept').to.equal(saved);
    });

    it('reports a fork that grew (another history under a larger tree), and a log that shrank', async () => {
      const state = join(dir, 'state.json');
      misbehaving.serve(300, 'honest');
      expect(
        (await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--state', state)).code,
      ).to.equal(0);
      misbehaving.serve(700, 'rewritten');
      const grown = await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--state', state);
      expect(grown.code).to.equal(3);
      expect(grown.stderr).to.match(/FORK/);
      misbehaving.serve(200, 'honest');
      const shrunk = await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--state', state);
      expect(shrunk.code).to.equal(3);
      expect(shrunk.stderr).to.match(/^l2: MISBEHAVED: the log shrank below the size 300/);
    });

    it('reports a tile that its entries do not give, naming it', async () => {
      misbehaving.serve(300, 'honest');
      misbehaving.tampered = 'tile/0/000';
      const changed = await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--full');
      expect(changed.code).to.equal(3);
      expect(changed.stderr).to.equal('l2: MISBEHAVED: tile/0/000 is not what the entries give\n');
    });

    it('refuses a checkpoint another key signed', async () => {
      misbehaving.serve(10, 'honest', ed25519KeyPairFromPkcs8Pem(generateEd25519Pkcs8Pem()));
      const refused = await verify(misbehaving.url, '--key', misbehaving.verifierKey);
      expect(refused.code).to.equal(3);
      expect(refused.stderr).to.match(/^l2: MISBEHAVED: the checkpoint does not verify under the key/);
    });

    it('refuses a state file it did not write, in one line, exit 1', async () => {
      misbehaving.serve(10, 'honest');
      const state = join(dir, 'bad.json');
      writeFileSync(state, JSON.stringify({ size: 'ten', random: randomBytes(4).toString('hex') }));
      const refused = await verify(misbehaving.url, '--key', misbehaving.verifierKey, '--state', state);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.match(/^l2: --state: \S+ is not a state this command wrote\n$/);
      expect(existsSync(`${state}.tmp`)).to.equal(false);
    });
  });
});
