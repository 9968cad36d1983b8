// `l2 users disable|enable` against a running server on SQLite, as an operator would use it: the command runs in its
// own process on the server's store, and everything a user, an L1 server and a peer see changes at once.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expectProblem, PASSWORD, startServer } from '../adapters/http/helpers.js';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { client, registerUser } from '../support/http.js';
import type { TestServer } from '../support/test-server.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const AP = { accept: 'application/activity+json' };

describe('l2 users disable and enable, on a running server', function () {
  let server: TestServer;
  let l1: FakeL1Server;
  let api: ReturnType<typeof client>;
  const l2 = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: {
        ...process.env,
        SECRETS_DIR: server.dir,
        STORE: `sqlite:${join(server.dir, 'l2.sqlite')}`,
        PUBLIC_URL: server.config.publicUrl,
        LOG_LEVEL: 'silent',
      },
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
  const verifyCode = async (token: string, l1Server?: string) => {
    const response = await api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
    return response.status === 200 ? 'valid' : (response.json.code as string);
  };
  const login = (username: string) => api.post('/auth/login', { username, password: PASSWORD });
  const webfinger = (username: string) =>
    api.get(`/.well-known/webfinger?resource=acct:${username}@${new URL(server.config.publicUrl).host}`);

  beforeEach(async () => {
    l1 = await new FakeL1Server().start();
    server = await startServer('sqlite');
    api = client(server.url);
  });
  afterEach(async () => {
    await server.close();
    await l1.stop();
  });

  it('disables at once — tokens revoked with notices, login 401, actor and webfinger 410 — and enables again', async () => {
    const alice = await registerUser(server.url, 'alice', PASSWORD);
    const bob = await registerUser(server.url, 'bob', PASSWORD);
    const attached = await api.post('/renderers/attach', { l1_server: l1.url }, { token: alice });
    expect(attached.status, attached.text).to.equal(201);
    const scoped = attached.json.access_token as string;
    // The hot paths answer these while the account is active: the disabling must reach them too.
    expect((await api.get('/users/alice', { headers: AP })).status).to.equal(200);
    expect((await webfinger('alice')).status).to.equal(200);

    const disabled = await l2('users', 'disable', 'Alice');
    expect(disabled.stdout).to.equal(
      'disabled alice; revoked 2 tokens (L1 servers are told from the queue)\n',
    );

    expect(await verifyCode(alice)).to.equal('token_revoked');
    expect(await verifyCode(scoped, l1.url)).to.equal('token_revoked');
    await l1.waitForNotices(1);
    expect(l1.notices[0]!.body).to.include({ l2_server: server.config.publicUrl });
    expectProblem(await login('alice'), 401, 'invalid_credentials');
    const actor = await api.get('/users/alice', { headers: AP });
    expectProblem(actor, 410, 'gone');
    expect(actor.json.detail).to.equal('This account is disabled.');
    expectProblem(await webfinger('alice'), 410, 'gone');
    expectProblem(await api.get('/users/alice/outbox', { headers: AP }), 410, 'gone');
    const page = await api.get('/users/alice', { headers: { accept: 'text/html' } });
    expect([page.status, page.text.includes('is disabled')]).to.deep.equal([410, true]);
    // Nobody else is touched.
    expect(await verifyCode(bob)).to.equal('valid');
    expect((await login('bob')).status).to.equal(200);

    const shown = (await l2('users', 'show', 'alice')).stdout;
    expect(shown).to.match(/^state {8}disabled$/m);
    expect(shown).to.match(/^disabled {5}\d{4}-\d\d-\d\dT/m);
    const listed = (await l2('users', 'list')).stdout.trim().split('\n');
    expect(listed.map((line) => [line.split('\t')[0], line.split('\t')[2]])).to.deep.equal([
      ['bob', 'active'],
      ['alice', 'disabled'],
    ]);

    const again = await l2('users', 'disable', 'alice');
    expect(again.stdout).to.match(/^alice was disabled already; revoked 0 tokens/);

    expect((await l2('users', 'enable', 'alice')).stdout).to.equal('enabled alice\n');
    expect((await api.get('/users/alice', { headers: AP })).status).to.equal(200);
    expect((await webfinger('alice')).status).to.equal(200);
    const back = await login('alice');
    expect(back.status, back.text).to.equal(200);
    expect(await verifyCode(back.json.access_token as string)).to.equal('valid');
    expect(await verifyCode(alice), 'tokens revoked by the disabling stay revoked').to.equal('token_revoked');
    expect((await l2('users', 'enable', 'alice')).stdout).to.equal('alice was not disabled\n');
  });
});
