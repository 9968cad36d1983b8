import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PROBE = `import { chromiumAvailable } from './test/support/chromium.ts'; console.log(chromiumAvailable());`;

describe('browser tests without Chromium', () => {
  const probe = (env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', ...env },
    });

  it('say so and skip on a developer machine', async () => {
    const { stdout, stderr } = await probe({ CI: '' });
    expect(stdout.trim()).to.equal('false');
    expect(stderr).to.contain('skipping browser tests: Chromium not found at /nonexistent/chromium');
  });

  it('fail under CI=true instead of skipping', async () => {
    const failure = await probe({ CI: 'true' }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).to.equal(1);
    expect((failure as { stderr: string }).stderr).to.contain('browser tests cannot be skipped in CI');
  });
});
