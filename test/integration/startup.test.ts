import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startL2Process } from '../support/l2-process.js';
import { TEST_SECRET } from '../support/test-server.js';
import { writeIdTokenKey } from '../support/id-token-key.js';
import { writeNoticeKey } from '../support/notice-key.js';
import { writeTestTlogKey } from '../support/tlog-test-key.js';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** tsx resolved from the project, since the service starts in an empty directory. */
const TSX = import.meta.resolve('tsx');

/** What an operator sees when the service cannot start: one line naming the problem, and a non-zero exit. */
describe('start-up failures', function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'l2-start-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const start = (env: Record<string, string>) =>
    run(process.execPath, ['--import', TSX, MAIN], {
      cwd: dir,
      env: { ...process.env, SECRETS_DIR: join(dir, 'secrets'), PORT: '0', ...env },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );

  it('stops with one line when MongoDB cannot be reached', async () => {
    const { code, stderr } = await start({ STORE: 'mongodb://127.0.0.1:1/l2?serverSelectionTimeoutMS=300' });
    expect(code).to.equal(1);
    expect(stderr.trim().split('\n').at(-1)).to.equal(
      'l2: cannot reach MongoDB at 127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('stops with one line in production without the secret file', async () => {
    const { code, stderr } = await start({ NODE_ENV: 'production', STORE: 'memory:' });
    expect(code).to.equal(1);
    expect(stderr.trim()).to.match(/^l2: \S+jwt_secret is missing: [^\n]+$/);
  });

  it("stops with one line when the store's transparency log was made under another PUBLIC_URL", async () => {
    const secrets = join(dir, 'secrets');
    mkdirSync(secrets);
    writeFileSync(join(secrets, 'jwt_secret'), TEST_SECRET);
    writeNoticeKey(secrets);
    writeIdTokenKey(secrets);
    writeTestTlogKey(secrets);
    const store = `sqlite:${join(dir, 'l2.sqlite')}`;
    const first = await startL2Process({
      SECRETS_DIR: secrets,
      STORE: store,
      PUBLIC_URL: 'https://a.example',
    });
    expect(await first.stop()).to.equal(0);

    const { code, stderr } = await start({
      STORE: store,
      PUBLIC_URL: 'https://b.example',
      SECRETS_DIR: secrets,
    });

    expect(code).to.equal(1);
    expect(stderr.trim()).to.equal(
      "l2: the store's transparency log is a.example/tlog, and PUBLIC_URL https://b.example makes it b.example/tlog: " +
        'a log keeps its origin (start with the PUBLIC_URL the store was made with)',
    );
  });

  it('stops with one line for a bad setting', async () => {
    const { code, stderr } = await start({ PORT: 'eighty' });
    expect(code).to.equal(1);
    expect(stderr.trim()).to.match(/^l2: PORT: [^\n]+$/);
  });
});

describe('graceful shutdown', function () {
  it('finishes a request in flight when SIGTERM arrives, then exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'l2-stop-'));
    try {
      writeFileSync(join(dir, 'jwt_secret'), TEST_SECRET);
      writeNoticeKey(dir);
      writeIdTokenKey(dir);
      writeTestTlogKey(dir);
      // Cost 12 makes the registration take long enough to still be running when the signal arrives.
      const l2 = await startL2Process({ SECRETS_DIR: dir, STORE: 'memory:', BCRYPT_COST: '12' });
      const body = JSON.stringify({ username: 'alice', password: 'correct horse battery' });
      const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(
          `${l2.url}/auth/register`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        request.on('error', reject);
        // Once the whole request is on the wire, the server has it: now ask the process to stop.
        request.on('finish', () => l2.child.kill('SIGTERM'));
        request.end(body);
      });
      const answered = await response;
      expect(answered.status).to.equal(201);
      expect(JSON.parse(answered.body).username).to.equal('alice');
      const [code] = l2.child.exitCode !== null ? [l2.child.exitCode] : await once(l2.child, 'exit');
      expect(code).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
