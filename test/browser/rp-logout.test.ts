// RP-initiated logout (API.md §2.5) in a real browser (Chromium): the page a client sends the person to is
// well-formed and axe-clean at desktop and phone width, works without any script, and its buttons end what they say.
import { expect } from 'chai';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FakeL1Server } from '../support/fake-l1-server.js';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  SCREENSHOT_DIR,
  VIEWPORTS,
} from '../support/chromium.js';
import { registerUser } from '../support/http.js';
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

describe('RP-initiated logout in a real browser (Chromium)', function () {
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
    context = await browser.newContext({
      viewport: VIEWPORTS.desktop,
      bypassCSP: true,
      javaScriptEnabled: true,
    });
    page = await context.newPage();
    scripts = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
  });
  afterEach(async () => context?.close());

  async function signIn(username: string): Promise<void> {
    await registerUser(l2.url, username, PASSWORD);
    await page.goto(`${l2.url}/login`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${l2.url}/`);
  }

  const logoutUrl = () =>
    `${l2.url}/oauth/logout?${new URLSearchParams({
      client_id: l1.url,
      post_logout_redirect_uri: `${l1.url}/signed-out`,
      state: 'st-1',
    })}`;

  it('keeps the logout page well-formed and axe-clean (WCAG 2.2 AA) at desktop and phone width', async () => {
    await signIn('alice');
    const violations: string[] = [];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.goto(logoutUrl());
      const structure = await pageStructure(page);
      expect(structure).to.deep.include({ h1: 1, main: 1, unlabelled: [], lang: 'en' });
      expect(await page.locator('main').innerText()).to.contain(l1.url);
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      )) as number;
      expect(overflow, size).to.be.at.most(0);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `logout-${size}.png`), fullPage: true });
      violations.push(...(await axeViolations(page)).map((v) => `${size}: ${v}`));
    }
    expect(violations).to.deep.equal([]);
    expect(
      scripts.filter((url) => url.startsWith(l2.url) && url !== `${l2.url}/static/passkeys.js`),
    ).to.deep.equal([]);
  });

  it('says whose sign-in a hint about another person ends, axe-clean at desktop and phone width', async () => {
    // carol signs in to the L1 server elsewhere and gets an ID token; this browser is dave's.
    const carol = await signedInBrowser(l2.url, 'carol', PASSWORD);
    const { verifier, challenge } = pkce();
    const back = callbackOf(
      await decide(carol, authorizeQuery(l1.url, challenge, { scope: 'openid' }), 'allow'),
    );
    const tokens = await exchange(l2.url, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: `${l1.url}/auth/callback`,
      code_verifier: verifier,
      client_id: l1.url,
    });
    const idToken = tokens.json.id_token as string;
    await signIn('dave');
    const violations: string[] = [];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.goto(`${l2.url}/oauth/logout?id_token_hint=${idToken}`);
      const notice = await page.locator('main .notice').innerText();
      expect(notice).to.contain('carol').and.contain('dave');
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      )) as number;
      expect(overflow, size).to.be.at.most(0);
      violations.push(...(await axeViolations(page)).map((v) => `${size}: ${v}`));
    }
    expect(violations).to.deep.equal([]);
  });

  it('logs out of L2 too with the second button, without JavaScript, and goes back to the client with state', async () => {
    await context.close();
    context = await browser.newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    page = await context.newPage();
    await signIn('bob');
    await page.goto(logoutUrl());
    // The fake L1 server answers /signed-out with an empty 404 (Chromium shows its own error page): the request is
    // what tells where the browser was sent.
    const [arrived] = await Promise.all([
      page.waitForRequest((request) => new URL(request.url()).pathname === '/signed-out'),
      page.getByRole('button', { name: 'Log out of this server and of L2' }).click(),
    ]);
    expect(arrived.url()).to.equal(`${l1.url}/signed-out?state=st-1`);
    // The browser's L2 session ended: another tab of it is sent to log in.
    const tab = await context.newPage();
    await tab.goto(`${l2.url}/renderers`);
    expect(new URL(tab.url()).pathname).to.equal('/login');
  });
});
