// API.md §4.3 in a real browser with JavaScript off: the move page (linked from the Account page) moves alice to
// bob — a second user of this L2 who lists her as an alias — shows where she moved with a Cancel form, and cancels;
// the profile form takes her other accounts one per line. Every state axe-clean at every VIEWPORTS width.
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  VIEWPORTS,
} from '../support/chromium.js';
import { client, registerUser } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';

describe('moving an account in a real browser (Chromium, JavaScript off)', function () {
  // A guard against a hang, not a speed check.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let context: BrowserContext;
  let page: Page;
  let aliceActor: string;
  let bobActor: string;

  before(async function () {
    if (!chromiumAvailable()) return this.skip();
    browser = await launchChromium();
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
    aliceActor = `${l2.url}/users/alice`;
    bobActor = `${l2.url}/users/bob`;
  });
  after(async () => {
    await browser?.close();
    await l2?.close();
  });
  beforeEach(async () => {
    // axe is injected as a script: this context alone lets it past the pages' CSP.
    context = await browser.newContext({ javaScriptEnabled: false, bypassCSP: true });
    page = await context.newPage();
  });
  afterEach(async () => context?.close());

  const go = (path: string) => page.goto(`${l2.url}${path}`);

  /**
   * The page the JavaScript-free page shows, audited at every width — one h1, labels, no sideways overflow, no axe
   * violation — in a context of the same session with scripts on (axe runs as one), reached by `reach`.
   */
  async function audit(where: string, reach: (p: Page) => Promise<unknown>): Promise<void> {
    const auditing = await browser.newContext({
      bypassCSP: true,
      storageState: await context.storageState(),
    });
    try {
      const p = await auditing.newPage();
      await reach(p);
      const violations: string[] = [];
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await p.setViewportSize(viewport);
        const structure = await pageStructure(p);
        expect(structure, `${where} (${size})`).to.deep.include({
          h1: 1,
          main: 1,
          unlabelled: [],
          lang: 'en',
        });
        const overflow = (await p.evaluate(
          'document.documentElement.scrollWidth - window.innerWidth',
        )) as number;
        expect(overflow, `horizontal overflow: ${where} (${size})`).to.be.at.most(0);
        violations.push(...(await axeViolations(p)).map((v) => `${where} (${size}): ${v}`));
      }
      expect(violations).to.deep.equal([]);
    } finally {
      await auditing.close();
    }
  }
  const at = (path: string) => (p: Page) => p.goto(`${l2.url}${path}`);

  it('moves alice to bob from the move page, shows the move with a Cancel form, and cancels', async () => {
    await registerUser(l2.url, 'alice', PASSWORD);
    const bob = await registerUser(l2.url, 'bob', PASSWORD);
    const aliased = await client(l2.url).send(
      'PATCH',
      '/users/bob',
      { also_known_as: [aliceActor] },
      { token: bob },
    );
    expect(aliased.status, aliased.text).to.equal(200);
    await go('/login');
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    await go('/account');
    await page.getByRole('link', { name: 'Move your account' }).click();
    await page.waitForURL(`${l2.url}/auth/move`);
    await audit('move form', at('/auth/move'));

    await page.getByLabel('The account to move to').fill('@bob@' + new URL(l2.url).host);
    await page.getByLabel('Your password').fill('not the password');
    await page.getByRole('button', { name: 'Move your followers' }).click();
    expect(await page.getByRole('alert').textContent()).to.include('password is wrong');
    expect(await page.getByLabel('The account to move to').inputValue()).to.equal(
      '@bob@' + new URL(l2.url).host,
    );
    expect(await page.getByLabel('Your password').inputValue(), 'never typed back').to.equal('');
    await audit('move form refused', async (p) => {
      await p.goto(`${l2.url}/auth/move`);
      await p.getByLabel('The account to move to').fill('@nobody@' + new URL(l2.url).host);
      await p.getByLabel('Your password').fill('not the password');
      await p.getByRole('button', { name: 'Move your followers' }).click();
      await p.getByRole('alert').waitFor();
    });

    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Move your followers' }).click();
    await page.getByRole('heading', { name: 'Your account has moved' }).waitFor();
    expect(page.url()).to.equal(`${l2.url}/auth/move`);
    expect(await page.getByRole('link', { name: bobActor }).getAttribute('href')).to.equal(bobActor);
    await audit('moved, with the Cancel form', at('/auth/move'));
    await go('/users/alice');
    expect(await page.getByRole('link', { name: bobActor }).count()).to.be.at.least(1);

    await go('/auth/move');
    await page.getByRole('button', { name: 'Cancel the move' }).click();
    await page.getByRole('heading', { name: 'Move your followers to another account' }).waitFor();
    const state = await client(l2.url).get('/users/alice', { headers: { accept: 'application/json' } });
    expect(state.json.moved_to).to.equal(null);
  });

  it('takes the other accounts one per line in the profile form, and shows them again', async () => {
    await registerUser(l2.url, 'carol', PASSWORD);
    await go('/login');
    await page.getByLabel('Username').fill('carol');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    await go('/users/carol/edit');
    await page.getByLabel('Your other accounts').fill(`${aliceActor}\n\n@bob@${new URL(l2.url).host}\n`);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL(`${l2.url}/users/carol`);

    await go('/users/carol/edit');
    expect(await page.getByLabel('Your other accounts').inputValue()).to.equal(`${aliceActor}\n${bobActor}`);
    await audit('profile form with other accounts', at('/users/carol/edit'));
    await page.getByLabel('Your other accounts').fill(`${l2.url}/users/carol`);
    await page.getByRole('button', { name: 'Save profile' }).click();
    expect(await page.getByRole('alert').textContent()).to.include('also_known_as');
    await audit('profile form refused', async (p) => {
      await p.goto(`${l2.url}/users/carol/edit`);
      await p.getByLabel('Your other accounts').fill(`${l2.url}/users/carol`);
      await p.getByRole('button', { name: 'Save profile' }).click();
      await p.getByRole('alert').waitFor();
    });
  });
});
