import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** tsx resolved from the project, since the service starts in an empty directory. */
const TSX = import.meta.resolve('tsx');

/** What an operator sees when the service cannot start: one line naming the problem, and a non-zero exit. */
describe('start-up failures', function () {
  this.timeout(30_000);
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

  it('stops with one line for a bad setting', async () => {
    const { code, stderr } = await start({ PORT: 'eighty' });
    expect(code).to.equal(1);
    expect(stderr.trim()).to.match(/^l2: PORT: [^\n]+$/);
  });
});
