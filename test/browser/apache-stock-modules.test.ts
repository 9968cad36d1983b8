// Apache with Debian's mod_auth_openidc and mod_oauth2 against a real L2 (API.md §2.5, issue 36): software L2's
// authors did not write, configured only by the blocks of docs/l1-integration.md "With stock software", which this
// test reads and runs as written. A real Chromium signs in through L2 to a page Apache protects, then logs out at L2
// and Apache receives the back-channel logout; the two modules as resource servers accept a token issued to their
// client, refuse the person's L2 session token, and refuse a token revoked at L2 at once.
import { expect } from 'chai';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApacheServer, apacheAvailable, freePort, testedConfig } from '../support/apache.js';
import { chromiumAvailable, launchChromium } from '../support/chromium.js';
import { client, registerUser, request } from '../support/http.js';
import {
  authorizeQuery,
  callbackOf,
  decide,
  exchange,
  pkce,
  signedInBrowser,
} from '../support/sign-in-with-l2.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';
const MODULES = ['auth_openidc', 'oauth2'];

/** What the protected pages show: Apache's own variables, through mod_include. */
const ECHO_PAGE = `<!DOCTYPE html>
<html lang="en"><head><title>Render server</title></head><body><main>
<p id="user"><!--#echo var="REMOTE_USER" --></p>
<p id="amr"><!--#echo var="OIDC_CLAIM_amr" --></p>
</main></body></html>
`;

describe('Apache mod_auth_openidc and mod_oauth2 with L2, configured as docs/l1-integration.md says', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let apache: ApacheServer;
  let context: BrowserContext;
  let page: Page;

  before(async function () {
    if (!chromiumAvailable() || !apacheAvailable(MODULES)) return this.skip();
    browser = await launchChromium();
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
    apache = new ApacheServer(await freePort());
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    apache.writeFile('client-key.pem', privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
    apache.writeFile('client-pub.pem', publicKey.export({ format: 'pem', type: 'spki' }) as string);
    const withL1 = (json: string) => json.replaceAll('${L1}', apache.url);
    apache.writeFile('htdocs/oidc-client.json', withL1(testedConfig('apache-rp-document')));
    apache.writeFile('htdocs/api-client.json', withL1(testedConfig('apache-api-document')));
    for (const folder of ['protected', 'api', 'oauth2-api']) {
      apache.makeFolder(`htdocs/${folder}`);
      apache.writeFile(`htdocs/${folder}/index.shtml`, ECHO_PAGE);
    }
    await apache.start(
      MODULES,
      [
        `Define L2 ${l2.url}`,
        `Define L1 ${apache.url}`,
        `Define CONF ${apache.dir}`,
        `Define OIDC_PASSPHRASE ${randomBytes(24).toString('hex')}`,
        `Define API_CLIENT_ID_FORM ${encodeURIComponent(encodeURIComponent(`${apache.url}/api-client.json`))}`,
        testedConfig('apache-rp'),
        testedConfig('apache-rs'),
        testedConfig('apache-mod-oauth2'),
      ].join('\n'),
    );
  });
  after(async () => {
    await browser?.close();
    await apache?.stop();
    await l2?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  afterEach(async function () {
    await context?.close();
    // What Apache said is what tells why a stock module refused: shown with the failure, not hunted for.
    if (this.currentTest?.state === 'failed') console.error(apache.errorLog().slice(-4000));
  });

  /** Opens the protected page signed out: L2's login, its consent page, Allow, and back to the page. */
  async function signInThroughApache(username: string): Promise<void> {
    await registerUser(l2.url, username, PASSWORD);
    await page.goto(`${apache.url}/protected/index.shtml`);
    expect(new URL(page.url()).origin).to.equal(l2.url);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/oauth/authorize');
    expect(await page.locator('main').innerText()).to.contain('Render server');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${apache.url}/protected/index.shtml`);
  }

  it('signs a browser in through L2 (private_key_jwt), shows REMOTE_USER and amr, and ends the session on the back-channel logout', async () => {
    await signInThroughApache('alice');
    expect(await page.locator('#user').innerText()).to.equal('alice');
    expect(await page.locator('#amr').innerText()).to.equal('pwd');
    // L2 read the client's key where the document says, mod_auth_openidc's own JWKS: its client assertion was checked.
    expect(apache.accessLog()).to.include('GET /protected/redirect_uri?jwks=1 - 200');

    // The person logs out at L2, with L2's own button.
    await page.goto(`${l2.url}/`);
    await page.getByRole('button', { name: 'Log out' }).click();
    const received = await apache.waitForAccess((line) =>
      line.startsWith('POST /protected/redirect_uri?logout=backchannel '),
    );
    expect(received).to.equal(
      'POST /protected/redirect_uri?logout=backchannel application/x-www-form-urlencoded 200',
    );

    // Apache's session is gone: the protected page sends the browser to L2 to sign in again.
    await page.goto(`${apache.url}/protected/index.shtml`);
    expect(new URL(page.url()).origin).to.equal(l2.url);
    expect(new URL(page.url()).pathname).to.equal('/login');
  });

  /** A token issued to the API's public client (an app doing PKCE), and the person's L2 session token. */
  async function apiTokens(username: string): Promise<{ scoped: string; session: string }> {
    const person = await signedInBrowser(l2.url, username, PASSWORD);
    const clientId = `${apache.url}/api-client.json`;
    const { verifier, challenge } = pkce();
    const query = authorizeQuery(clientId, challenge, { redirect_uri: `${apache.url}/app/callback` });
    const code = callbackOf(await decide(person, query, 'allow')).searchParams.get('code')!;
    const answer = await exchange(l2.url, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${apache.url}/app/callback`,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(answer.status, answer.text).to.equal(200);
    const session = (await request('POST', `${l2.url}/auth/login`, { username, password: PASSWORD })).json
      .access_token as string;
    return { scoped: answer.json.access_token as string, session };
  }

  const callApi = (path: string, token: string) =>
    request('GET', `${apache.url}${path}/index.shtml`, undefined, {
      headers: { authorization: `Bearer ${token}` },
    });

  for (const [module, path] of [
    ['mod_auth_openidc', '/api'],
    ['mod_oauth2', '/oauth2-api'],
  ] as const) {
    it(`${module} as a resource server accepts its client's token, refuses the session token, and refuses a revoked token at once`, async () => {
      const username = module === 'mod_oauth2' ? 'carol' : 'bob';
      const { scoped, session } = await apiTokens(username);

      const accepted = await callApi(path, scoped);
      expect(accepted.status, accepted.text).to.equal(200);
      expect(accepted.text).to.contain(`<p id="user">${username}</p>`);
      expect((await callApi(path, session)).status).to.equal(401);

      // The person detaches the API at L2; the very next request is refused (no cache keeps the old answer).
      const detached = await client(l2.url).post(
        '/renderers/detach',
        { l1_server: `${apache.url}/api-client.json` },
        { token: session },
      );
      expect(detached.json).to.deep.equal({ revoked: 1 });
      expect((await callApi(path, scoped)).status).to.equal(401);
    });
  }
});
