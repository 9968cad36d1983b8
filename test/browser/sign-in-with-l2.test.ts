// "Sign in with L2" in a real browser (Chromium): signed out to login and back, the consent page's structure, its
// axe-core audit at desktop and phone width, Allow and Deny landing on the L1 server — no script anywhere.
import { expect } from 'chai';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FakeClientDocuments } from '../support/fake-client-documents.js';
import { FakeL1Server } from '../support/fake-l1-server.js';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  SCREENSHOT_DIR,
  VIEWPORTS,
} from '../support/chromium.js';
import { client, registerUser } from '../support/http.js';
import { authorizeQuery, exchange, pkce } from '../support/sign-in-with-l2.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';

describe('Sign in with L2 in a real browser (Chromium)', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let l1: FakeL1Server;
  let context: BrowserContext;
  let page: Page;
  let scripts: string[];

  before(async function () {
    if (!chromiumAvailable()) return this.skip();
    browser = await launchChromium();
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
    l1 = await new FakeL1Server().start();
  });
  after(async () => {
    await browser?.close();
    await l2?.close();
    await l1?.stop();
  });
  beforeEach(async () => {
    // bypassCSP lets the axe audit inject its script; nothing of L2's own may run (counted below).
    context = await browser.newContext({ viewport: VIEWPORTS.desktop, bypassCSP: true });
    page = await context.newPage();
    scripts = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
  });
  afterEach(async () => context?.close());

  /** The L1 server's authorization request, with its PKCE verifier. */
  const start = () => {
    const { verifier, challenge } = pkce();
    const query = authorizeQuery(l1.url, challenge);
    return { verifier, query, state: new URLSearchParams(query).get('state')! };
  };

  async function logIn(username: string): Promise<void> {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('takes a signed-out person through login to the consent page, and Allow to the L1 server with a code', async () => {
    await registerUser(l2.url, 'alice', PASSWORD);
    const { verifier, query, state } = start();
    await page.goto(`${l2.url}/oauth/authorize?${query}`);
    expect(new URL(page.url()).pathname).to.equal('/login');
    await logIn('alice');
    await page.waitForURL((url) => url.pathname === '/oauth/authorize');

    expect(await page.locator('main h1').innerText()).to.equal('Sign in with L2');
    expect(await page.locator('main').innerText()).to.contain(l1.url);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback');

    const back = new URL(page.url());
    expect(back.origin).to.equal(l1.url);
    expect(back.searchParams.get('state')).to.equal(state);
    const answer = await exchange(l2.url, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: `${l1.url}/auth/callback`,
      code_verifier: verifier,
      client_id: l1.url,
    });
    expect(answer.status, answer.text).to.equal(200);
    const verified = await client(l2.url).post('/auth/verify', {
      token: answer.json.access_token,
      l1_server: l1.url,
    });
    expect(verified.json).to.include({ valid: true, username: 'alice', l1_server: l1.url });
    // No script of L2's runs in the flow but the login page's passkey button (issue 28), which the password form
    // does not need: the consent page and the rest work without JavaScript.
    expect(
      scripts.filter((url) => url.startsWith(l2.url) && url !== `${l2.url}/static/passkeys.js`),
    ).to.deep.equal([]);
  });

  it('sends Deny back to the L1 server with access_denied', async () => {
    await registerUser(l2.url, 'bob', PASSWORD);
    const { query, state } = start();
    await page.goto(`${l2.url}/login`);
    await logIn('bob');
    await page.waitForURL(`${l2.url}/`);
    await page.goto(`${l2.url}/oauth/authorize?${query}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback');
    // API.md §2.5: errors carry error_description and iss (RFC 9207).
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.equal({
      error: 'access_denied',
      error_description: 'The person denied the request.',
      state,
      iss: l2.url,
    });
  });

  it('keeps the consent page well-formed and axe-clean (WCAG 2.2 AA) at desktop and phone width', async () => {
    await registerUser(l2.url, 'carol', PASSWORD);
    await page.goto(`${l2.url}/login`);
    await logIn('carol');
    await page.waitForURL(`${l2.url}/`);
    const violations: string[] = [];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.goto(`${l2.url}/oauth/authorize?${start().query}`);
      const structure = await pageStructure(page);
      expect(structure).to.deep.include({ h1: 1, main: 1, unlabelled: [], lang: 'en' });
      // Nothing wider than the screen: a long L1 server URL wraps.
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      )) as number;
      expect(overflow, size).to.be.at.most(0);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `consent-${size}.png`), fullPage: true });
      violations.push(...(await axeViolations(page)).map((v) => `${size}: ${v}`));
    }
    expect(violations).to.deep.equal([]);
  });

  it("keeps a document client's consent page axe-clean, its name, logo and home page beside the host (API.md §2.5)", async () => {
    const docs = await new FakeClientDocuments().start();
    try {
      const clientId = docs.publish('/client.json', {
        client_name: 'Photo <Studio> with a rather long name that has to wrap on a phone',
        redirect_uris: [docs.url('/callback')],
        logo_uri: docs.url('/logo.png'),
        client_uri: docs.url('/about/a/very/long/path/that/also/has/to/wrap/on/a/phone/screen'),
      });
      await registerUser(l2.url, 'erin', PASSWORD);
      await page.goto(`${l2.url}/login`);
      await logIn('erin');
      await page.waitForURL(`${l2.url}/`);
      const violations: string[] = [];
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        const { challenge } = pkce();
        await page.goto(
          `${l2.url}/oauth/authorize?${authorizeQuery(clientId, challenge, { redirect_uri: docs.url('/callback') })}`,
        );
        expect(await page.locator('.client-document strong').first().textContent()).to.equal(
          new URL(docs.origin).host,
        );
        expect(await page.locator('.client-name').textContent()).to.include('Photo <Studio>');
        expect(await page.locator('.client-document img').getAttribute('referrerpolicy')).to.equal(
          'no-referrer',
        );
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        expect(overflow, size).to.be.at.most(0);
        violations.push(...(await axeViolations(page)).map((v) => `${size}: ${v}`));
      }
      expect(violations).to.deep.equal([]);
      expect(
        scripts.filter((url) => url.startsWith(l2.url) && url !== `${l2.url}/static/passkeys.js`),
      ).to.deep.equal([]);
    } finally {
      await docs.stop();
    }
  });

  it('shows an error page, and no way on, for a request whose redirect_uri is not the L1 server', async () => {
    await registerUser(l2.url, 'dave', PASSWORD);
    await page.goto(`${l2.url}/login`);
    await logIn('dave');
    await page.waitForURL(`${l2.url}/`);
    const { challenge } = pkce();
    const response = await page.goto(
      `${l2.url}/oauth/authorize?${authorizeQuery(l1.url, challenge, { redirect_uri: 'https://evil.example/cb' })}`,
    );
    expect(response?.status()).to.equal(400);
    expect(new URL(page.url()).origin).to.equal(l2.url);
    expect(await page.getByRole('button', { name: 'Allow' }).count()).to.equal(0);
    expect(await axeViolations(page)).to.deep.equal([]);
  });
});
