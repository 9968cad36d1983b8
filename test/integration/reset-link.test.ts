// `l2 users reset USER [--clear-factors]` against a running server on SQLite, as an operator would use it: the
// command prints a link in its own process, the person opens it in a browser (here the form browser), and every
// token of the account ends — a fake L1 server (a real HTTP server) receives the notices.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expectProblem, jwtPayload, PASSWORD, startServer } from '../adapters/http/helpers.js';
import { FormBrowser } from '../support/browser.js';
import { FakeL1Server } from '../support/fake-l1-server.js';
import { FixedClock } from '../support/fixed-clock.js';
import { client, registerUser } from '../support/http.js';
import { codeAt } from '../support/rfc6238.js';
import { SoftAuthenticator } from '../support/soft-authenticator.js';
import { TEST_PUBLIC_URL, type TestServer } from '../support/test-server.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const NEW_PASSWORD = 'a brand new passphrase';

describe('l2 users reset: the one-time link, on a running server', function () {
  let server: TestServer;
  let l1: FakeL1Server;
  let api: ReturnType<typeof client>;
  let clock: FixedClock;
  const l2 = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: {
        ...process.env,
        SECRETS_DIR: server.dir,
        STORE: `sqlite:${join(server.dir, 'l2.sqlite')}`,
        PUBLIC_URL: server.config.publicUrl,
        LOG_LEVEL: 'silent',
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  const verifyCode = async (token: string, l1Server?: string) => {
    const response = await api.post('/auth/verify', l1Server ? { token, l1_server: l1Server } : { token });
    return response.status === 200 ? 'valid' : (response.json.code as string);
  };
  const login = (password: string) => api.post('/auth/login', { username: 'alice', password });
  /** The link the command printed, and the path a browser at this test server opens for it. */
  const resetLink = async (...options: string[]) => {
    const said = await l2('users', 'reset', 'alice', ...options);
    expect(said.code, said.stderr).to.equal(0);
    const link = said.stdout.split('\n')[0]!;
    const url = new URL(link);
    const until = new Date(/valid until (\S+),/.exec(said.stdout)![1]!);
    return {
      link,
      said: said.stdout,
      until,
      token: url.searchParams.get('token')!,
      path: `${url.pathname}${url.search}`,
    };
  };

  beforeEach(async () => {
    l1 = await new FakeL1Server().start();
    clock = new FixedClock(new Date());
    server = await startServer('sqlite', { override: { clock: () => clock } });
    api = client(server.url);
  });
  afterEach(async () => {
    await server.close();
    await l1.stop();
  });

  /** alice with a session, a token scoped to the fake L1, two-step sign-in on and a passkey. */
  async function aliceWithEverything() {
    const session = await registerUser(server.url, 'alice', PASSWORD);
    const scoped = (await api.post('/renderers/attach', { l1_server: l1.url }, { token: session })).json
      .access_token as string;
    const setup = (await api.post('/auth/totp/setup', undefined, { token: session })).json;
    const on = await api.post(
      '/auth/totp',
      { code: codeAt(setup.secret, clock.now()), current_password: PASSWORD },
      { token: session },
    );
    expect(on.status, on.text).to.equal(200);
    const phone = new SoftAuthenticator(TEST_PUBLIC_URL);
    const options = (await api.post('/auth/passkeys/options', undefined, { token: session })).json;
    const added = await api.post(
      '/auth/passkeys',
      { name: 'Phone', response: phone.register(options), current_password: PASSWORD },
      { token: session },
    );
    expect(added.status, added.text).to.equal(201);
    return { session, scoped, secret: setup.secret as string, phone };
  }

  it('prints a link valid one hour; using it sets the password and revokes every token, telling the L1 server', async () => {
    const { session, scoped } = await aliceWithEverything();
    const { link, said, path, token } = await resetLink();
    expect(link.startsWith(`${server.config.publicUrl}/auth/reset?token=`)).to.equal(true);
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(said).to.contain(
      `for alice; valid until ${new Date(clock.now().getTime() + 3600_000).toISOString().slice(0, 16)}`,
    );
    // Her passkey signs in whatever the password: the operator is shown it, to clear it if she does not know it.
    expect(said).to.contain(
      'note: 1 passkey(s) still sign in without the password; if alice does not know one of them, reset with --clear-factors:\n' +
        `  Phone: added ${clock.now().toISOString()}, last used never`,
    );

    const browser = new FormBrowser(server.url);
    const page = await browser.get(path);
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('<strong>alice</strong>');
    // The page of the link never holds its secret: the form posts back to the page's own address.
    expect(page.text).not.to.contain(token);
    expect(page.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(page.headers.get('cache-control')).to.match(/no-store/);

    const set = await browser.submit(path, { new_password: NEW_PASSWORD });
    expect(set.status, set.text).to.equal(303);
    expect(set.headers.get('location')).to.equal('/login?reset=1');

    expect(await verifyCode(session)).to.equal('token_revoked');
    expect(await verifyCode(scoped, l1.url)).to.equal('token_revoked');
    await l1.waitForNotices(1);
    expect(l1.notices[0]!.body).to.include({ username: 'alice', l2_server: server.config.publicUrl });
    expectProblem(await login(PASSWORD), 401, 'invalid_credentials');
    // Without --clear-factors the second factor stays: the new password alone is not enough.
    expectProblem(await login(NEW_PASSWORD), 401, 'mfa_required');

    // Used once: the page and the form say it is gone.
    const again = await browser.get(path);
    expect(again.status).to.equal(410);
    expect(again.text).to.contain('was used already, has expired or was replaced');
    expectProblem(
      await api.post('/auth/reset', { token, new_password: 'yet another password' }),
      410,
      'gone',
    );
  });

  it('works in a browser signed in as someone else (a shared browser): its form is checked for that session', async () => {
    await registerUser(server.url, 'alice', PASSWORD);
    await registerUser(server.url, 'bob', PASSWORD);
    const browser = new FormBrowser(server.url);
    await browser.get('/login');
    expect((await browser.submit('/auth/login', { username: 'bob', password: PASSWORD })).status).to.equal(
      303,
    );
    expect(browser.cookie('l2_token')).to.be.a('string');

    const { path } = await resetLink();
    expect((await browser.get(path)).status).to.equal(200);
    const set = await browser.submit(path, { new_password: NEW_PASSWORD });
    expect(set.status, set.text).to.equal(303);
    expect((await login(NEW_PASSWORD)).status).to.equal(200);
    // A post without the token of the page is refused, signed in or not.
    const forged = await browser.submit(path, { new_password: 'one more password', _csrf: 'x' });
    expect(forged.status).to.equal(403);
  });

  it("forgets the login limits' count of the username: a person locked out signs in with the new password at once", async () => {
    await registerUser(server.url, 'alice', PASSWORD);
    for (let i = 0; i < 10; i++) await login('not her password');
    expectProblem(await login(PASSWORD), 429, 'rate_limited');
    const { token } = await resetLink();
    expect((await api.post('/auth/reset', { token, new_password: NEW_PASSWORD })).status).to.equal(200);
    expect((await login(NEW_PASSWORD)).status).to.equal(200);
  });

  it('with --clear-factors removes two-step sign-in and the passkeys; the history tells it all', async () => {
    const { phone } = await aliceWithEverything();
    const { token, said } = await resetLink('--clear-factors');
    expect(said).to.contain('using it also removes two-step sign-in and the passkeys');
    expect(said, 'nothing to warn of: they go').not.to.contain('note:');

    const set = await api.post('/auth/reset', { token, new_password: NEW_PASSWORD });
    expect(set.status, set.text).to.equal(200);
    expect(set.json).to.deep.equal({ username: 'alice', revoked: 2 });

    const signedIn = await login(NEW_PASSWORD);
    expect(signedIn.status, signedIn.text).to.equal(200);
    expect(jwtPayload(signedIn.json.access_token).amr).to.deep.equal(['pwd']);
    const options = (await api.post('/auth/login/passkey/options')).json;
    expectProblem(
      await api.post('/auth/login/passkey', { response: phone.signIn(options) }),
      401,
      'invalid_credentials',
    );
    const security = (await api.get('/auth/security', { token: signedIn.json.access_token })).json;
    expect(security.second_factor.enabled).to.equal(false);
    expect(security.passkeys).to.deep.equal([]);
    expect(security.history.slice(0, 2).map((e: { kind: string }) => e.kind)).to.have.members([
      'password_reset',
      'factors_cleared',
    ]);
  });

  it('expires after an hour, and a newer link replaces an older one', async () => {
    await registerUser(server.url, 'alice', PASSWORD);
    const older = await resetLink();
    const newer = await resetLink();
    expectProblem(
      await api.post('/auth/reset', { token: older.token, new_password: NEW_PASSWORD }),
      410,
      'gone',
    );

    // The command ran on the system clock: an hour from then, the server's clock says the link is over.
    expect(newer.until.getTime() - Date.now()).to.be.within(3590_000, 3600_000);
    clock.set(new Date(newer.until.getTime() - 1000));
    expect((await new FormBrowser(server.url).get(newer.path)).status).to.equal(200);
    clock.set(newer.until);
    expect((await new FormBrowser(server.url).get(newer.path)).status).to.equal(410);
    expectProblem(
      await api.post('/auth/reset', { token: newer.token, new_password: NEW_PASSWORD }),
      410,
      'gone',
    );
    expect((await login(PASSWORD)).status).to.equal(200);
  });

  it('keeps the link alive when the new password breaks a rule', async () => {
    await registerUser(server.url, 'alice', PASSWORD);
    const { token } = await resetLink();
    expectProblem(await api.post('/auth/reset', { token, new_password: 'short' }), 400, 'invalid_request');
    expect((await api.post('/auth/reset', { token, new_password: NEW_PASSWORD })).status).to.equal(200);
  });

  it('refuses an unknown user in one line, exit 1', async () => {
    const said = await l2('users', 'reset', 'nobody');
    expect(said.code).to.equal(1);
    expect(said.stderr).to.equal('l2: there is no user nobody\n');
  });
});
