import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PROBE = `import { apacheAvailable } from './test/support/apache.ts'; console.log(apacheAvailable(['auth_openidc']));`;

describe('the Apache tests without Apache', () => {
  const probe = (env: Record<string, string>) =>
    run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
      env: { ...process.env, APACHE_BIN: '/nonexistent/apache2', ...env },
    });

  it('say so and skip on a developer machine', async () => {
    const { stdout, stderr } = await probe({ CI: '' });
    expect(stdout.trim()).to.equal('false');
    expect(stderr).to.contain('skipping the Apache tests: /nonexistent/apache2 not found');
  });

  it('fail under CI=true instead of skipping', async () => {
    const failure = await probe({ CI: 'true' }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).to.equal(1);
    expect((failure as { stderr: string }).stderr).to.contain('the Apache tests cannot be skipped in CI');
  });
});
