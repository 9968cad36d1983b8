import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { join } from 'node:path';
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
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';

describe('web UI in a real browser (Chromium)', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let l1: FakeL1Server;
  let context: BrowserContext;
  let page: Page;
  /** Every HTML body the browser received, to scan for tokens. */
  const htmlSeen: { url: string; body: string }[] = [];
  const dialogs: string[] = [];

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
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('response', async (response) => {
      if ((response.headers()['content-type'] ?? '').includes('text/html')) {
        htmlSeen.push({ url: response.url(), body: await response.text().catch(() => '') });
      }
    });
  });
  afterEach(async () => context?.close());

  const go = (path: string) => page.goto(`${l2.url}${path}`);
  const navText = () => page.locator('header nav').innerText();

  async function register(username: string): Promise<void> {
    await go('/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/`);
  }

  it('registers a person and shows them signed in on the home page', async () => {
    await register('alice');
    expect(await navText()).to.contain('Signed in as alice');
    expect(await page.locator('main h1').count()).to.equal(1);
    expect(await page.locator('.stats').innerText()).to.match(/1\s+users/);
  });

  it('logs out with the navigation button and shows the person signed out', async () => {
    await register('bob');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${l2.url}/`);
    expect(await navText()).to.contain('Log in');
    expect(await navText()).not.to.contain('Signed in');
  });

  it('shows the error and keeps the username after a wrong password, never the password', async () => {
    await register('carol');
    await page.getByRole('button', { name: 'Log out' }).click();
    await go('/login');
    await page.getByLabel('Username').fill('carol');
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).to.be.ok;
    expect(await page.getByRole('alert').innerText()).to.contain('username or password is wrong');
    expect(await page.getByLabel('Username').inputValue()).to.equal('carol');
    expect(await page.getByLabel('Password').inputValue()).to.equal('');
    expect(await page.content()).not.to.contain('wrong password here');
  });

  it('logs in and goes back to the page that asked for it', async () => {
    await register('dave');
    await page.getByRole('button', { name: 'Log out' }).click();
    await go('/renderers');
    expect(page.url()).to.equal(`${l2.url}/login?next=%2Frenderers`);
    await page.getByLabel('Username').fill('dave');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${l2.url}/renderers`);
    expect(await page.locator('h1').innerText()).to.equal('Renderers');
  });

  it('registers an asset through the form; it appears in the registry and the activities, its script shown as text', async () => {
    await register('erin');
    await go('/registry');
    await page.getByRole('link', { name: 'Register an asset' }).click();
    await page.getByLabel('Name', { exact: true }).fill('sunset');
    await page.getByLabel('Content hash').fill(`sha256:${'ab'.repeat(32)}`);
    await page.getByLabel('Media type').fill('image/png');
    await page.getByLabel('Description (optional)').fill('<script>alert("xss")</script> red sky');
    await page.getByLabel('Tags (optional)').fill('art, sky');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/assets/sunset`);
    expect(await page.locator('.description').innerText()).to.equal('<script>alert("xss")</script> red sky');

    await go('/registry');
    expect(await page.getByRole('link', { name: 'sunset' }).count()).to.equal(1);
    await go('/activities');
    const row = page.locator('tbody tr').first();
    expect(await row.innerText()).to.match(/Create\s+erin\s+sunset/);
    expect(dialogs).to.deep.equal([]);
  });

  it('re-renders the asset form with the message and the values typed when a field is wrong', async () => {
    await register('frank');
    await go('/assets/new');
    await page.getByLabel('Name', { exact: true }).fill('broken');
    await page.getByLabel('Content hash').fill('not-a-hash');
    await page.getByLabel('Media type').fill('image/png');
    await page.getByRole('button', { name: 'Register' }).click();
    expect(await page.getByRole('alert').innerText()).to.contain('content_hash');
    expect(await page.getByLabel('Content hash').inputValue()).to.equal('not-a-hash');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('broken');
  });

  it('attaches a renderer: the browser lands on the L1 callback with a token that verifies for that L1, and no page holds a token', async () => {
    await register('grace');
    const sessionToken = (await context.cookies()).find((c) => c.name === 'l2_token')!.value;
    await go('/renderers');
    await page.getByLabel('L1 server URL').fill(l1.url);
    await page.getByRole('button', { name: 'Attach' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback');

    const token = new URL(page.url()).searchParams.get('token')!;
    expect(l1.callbacks.at(-1)!.searchParams.get('token')).to.equal(token);
    const verdict = await client(l2.url).post('/auth/verify', { token, l1_server: l1.url });
    expect(verdict.status).to.equal(200);
    expect(verdict.json).to.include({ valid: true, username: 'grace', l1_server: l1.url });

    await go('/renderers');
    expect(await page.locator('.renderers').innerText()).to.contain(l1.url);
    for (const { url, body } of htmlSeen) {
      expect(body, url).not.to.contain(token);
      expect(body, url).not.to.contain(sessionToken);
    }
  });

  it('detaches a renderer from its button', async () => {
    await register('heidi');
    await go('/renderers');
    await page.getByLabel('L1 server URL').fill(l1.url);
    await page.getByRole('button', { name: 'Attach' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback');
    await go('/renderers');
    await page.getByRole('button', { name: `Detach ${l1.url}` }).click();
    await page.waitForURL(`${l2.url}/renderers`);
    expect(await page.locator('main').innerText()).to.contain('No renderer is attached.');
  });

  /** Logs `username` in within a fresh browser context (another browser of the same person). */
  async function secondBrowser(username: string, password = PASSWORD): Promise<Page> {
    const other = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
    await other.goto(`${l2.url}/login`);
    await other.getByLabel('Username').fill(username);
    await other.getByLabel('Password').fill(password);
    await other.getByRole('button', { name: 'Log in' }).click();
    await other.waitForURL(`${l2.url}/`);
    expect(await other.locator('header nav').innerText()).to.contain(`Signed in as ${username}`);
    return other;
  }

  it("changes the password in one browser, and the other browser's session ends", async () => {
    await register('kate');
    const other = await secondBrowser('kate');
    try {
      await page.getByRole('link', { name: 'Account' }).click();
      await page.waitForURL(`${l2.url}/account`);
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password').fill('an entirely new secret');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.waitForURL(`${l2.url}/account?changed=1`);
      expect(await page.getByRole('status').innerText()).to.contain('Your password was changed');
      expect(await navText()).to.contain('Signed in as kate');

      await other.reload();
      expect(await other.locator('header nav').innerText()).to.contain('Log in');
      await other.goto(`${l2.url}/auth/sessions`);
      expect(other.url()).to.equal(`${l2.url}/login?next=%2Fauth%2Fsessions`);
    } finally {
      await other.context().close();
    }
  });

  it('lists the sessions and ends the other browser from its button', async () => {
    await register('leo');
    const other = await secondBrowser('leo');
    try {
      await page.getByRole('link', { name: 'Sessions' }).click();
      await page.waitForURL(`${l2.url}/auth/sessions`);
      const rows = page.locator('main li');
      expect(await rows.count()).to.equal(2);
      expect(await rows.filter({ hasText: 'this session' }).count()).to.equal(1);
      await rows.filter({ hasNotText: 'this session' }).getByRole('button').click();
      await page.waitForURL(`${l2.url}/auth/sessions`);
      expect(await page.locator('main li').count()).to.equal(1);

      await other.reload();
      expect(await other.locator('header nav').innerText()).to.contain('Log in');
    } finally {
      await other.context().close();
    }
  });

  it('deletes an account from the Account page; its profile then answers 410', async () => {
    await register('mia');
    await go('/account');
    expect(await page.locator('.danger-zone').innerText()).to.contain('This cannot be undone');
    await page.getByLabel('Your password, to confirm').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${l2.url}/`);
    expect(await navText()).to.contain('Log in');

    const profile = await go('/users/mia');
    expect(profile?.status()).to.equal(410);
    expect(await page.locator('h1').innerText()).to.equal('mia left');
    expect(await page.locator('main').innerText()).to.contain('was deleted by its owner');
  });

  it('gives every page one h1, a main, a nav and a label for every visible input', async () => {
    await register('ivan');
    const paths = [
      '/',
      '/registry',
      '/activities',
      '/users',
      '/users/ivan',
      '/renderers',
      '/assets/new',
      '/account',
      '/auth/sessions',
      '/nowhere',
    ];
    for (const path of paths) {
      await go(path);
      const audit = await pageStructure(page);
      expect(audit.h1, path).to.equal(1);
      expect(audit.main, path).to.equal(1);
      expect(audit.nav, path).to.be.at.least(1);
      expect(audit.unlabelled, path).to.deep.equal([]);
      expect(audit.lang, path).to.equal('en');
    }
  });

  it('passes an axe-core WCAG 2.2 AA audit on every page, signed in and out, at desktop and phone width', async () => {
    await register('olga');
    await go('/assets/new');
    await page.getByLabel('Name', { exact: true }).fill('fjord');
    await page.getByLabel('Content hash').fill(`sha256:${'ef'.repeat(32)}`);
    await page.getByLabel('Media type').fill('image/png');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/assets/fjord`);
    const asset = (await client(l2.url).get('/assets/fjord', { headers: { accept: 'application/json' } }))
      .json;
    expect(asset.name).to.equal('fjord');
    // A renderer attached, so /renderers shows its Detach button (and /auth/sessions lists its token).
    await go('/renderers');
    await page.getByLabel('L1 server URL').fill(l1.url);
    await page.getByRole('button', { name: 'Attach' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/callback');
    // Another session (an API login), whose token registers and deletes an asset: its page then answers 410.
    const api = client(l2.url);
    const token = (await api.post('/auth/login', { username: 'olga', password: PASSWORD })).json
      .access_token as string;
    const glacier = { name: 'glacier', content_hash: `sha256:${'12'.repeat(32)}`, media_type: 'image/png' };
    expect((await api.post('/assets', glacier, { token })).status).to.equal(201);
    expect((await api.send('DELETE', '/assets/glacier', undefined, { token })).status).to.equal(200);
    // A throw-away account, deleted through the API: its profile answers 410.
    const doomed = await registerUser(l2.url, 'pavel', PASSWORD);
    expect(
      (await api.post('/auth/delete-account', { password: PASSWORD }, { token: doomed })).status,
    ).to.equal(200);
    for (const path of ['/assets/glacier', '/users/pavel']) {
      const gone = await api.get(path, { headers: { accept: 'text/html' } });
      expect(gone.status, path).to.equal(410);
      expect(gone.text, path).to.contain('was deleted by its owner');
    }
    await go('/renderers');
    expect(await page.getByRole('button', { name: `Detach ${l1.url}` }).count()).to.equal(1);
    await go('/auth/sessions');
    expect(await page.locator('main li').count()).to.equal(3);
    const activity = (await api.get('/activities', { headers: { accept: 'application/json' } })).json.items[0]
      .idx as number;

    /** A page reached by its path, or a form the browser submits and gets back with its error (role="alert"). */
    type Audited = string | { readonly name: string; readonly reach: (p: Page) => Promise<void> };
    const refused = (path: string, fields: Record<string, string>, button: string): Audited => ({
      name: `${path} refused by ${button}`,
      reach: async (p) => {
        await p.goto(`${l2.url}${path}`);
        for (const [label, value] of Object.entries(fields)) {
          await p.getByLabel(label, { exact: true }).fill(value);
        }
        await p.getByRole('button', { name: button, exact: true }).click();
        await p.getByRole('alert').waitFor();
      },
    });
    const everyone: Audited[] = [
      '/',
      '/registry',
      '/activities',
      `/activities/${activity}`,
      '/users',
      '/users/olga',
      '/users/pavel',
      '/assets/fjord',
      '/assets/glacier',
      '/nowhere',
    ];
    const signedIn: Audited[] = [
      ...everyone,
      '/renderers',
      '/assets/new',
      '/assets/fjord/edit',
      '/account',
      '/auth/sessions',
      refused(
        '/assets/new',
        { Name: 'broken', 'Content hash': 'not-a-hash', 'Media type': 'image/png' },
        'Register',
      ),
      refused(
        '/account',
        { 'Current password': 'not the password', 'New password': 'an entirely new secret' },
        'Change password',
      ),
    ];
    const signedOut: Audited[] = [
      ...everyone,
      '/login',
      '/register',
      refused('/login', { Username: 'olga', Password: 'not the password' }, 'Log in'),
      refused('/register', { Username: 'olga', Password: PASSWORD }, 'Register'),
    ];
    // The audit script is injected, so this context alone lets it past the page's CSP.
    const auditContext = await browser.newContext({
      bypassCSP: true,
      storageState: await context.storageState(),
    });
    const anonymousContext = await browser.newContext({ bypassCSP: true });
    const violations: string[] = [];
    let audited = 0;
    try {
      for (const [who, ctx, targets] of [
        ['signed in', auditContext, signedIn],
        ['signed out', anonymousContext, signedOut],
      ] as const) {
        const auditPage = await ctx.newPage();
        for (const [size, viewport] of Object.entries(VIEWPORTS)) {
          await auditPage.setViewportSize(viewport);
          for (const target of targets) {
            if (typeof target === 'string') await auditPage.goto(`${l2.url}${target}`);
            else await target.reach(auditPage);
            const found = await axeViolations(auditPage);
            const name = typeof target === 'string' ? target : target.name;
            violations.push(...found.map((v) => `${name} (${who}, ${size}): ${v}`));
            audited++;
          }
        }
      }
    } finally {
      await auditContext.close();
      await anonymousContext.close();
    }
    expect(violations).to.deep.equal([]);
    expect(audited).to.equal(2 * (signedIn.length + signedOut.length));
  });

  it('takes a screenshot of every page at desktop and phone width', async () => {
    await register('judy');
    await go('/assets/new');
    await page.getByLabel('Name', { exact: true }).fill('aurora');
    await page.getByLabel('Content hash').fill(`sha256:${'cd'.repeat(32)}`);
    await page.getByLabel('Media type').fill('image/jpeg');
    await page.getByLabel('Description (optional)').fill('Northern lights over the fjord.');
    await page.getByLabel('Tags (optional)').fill('sky, night');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/assets/aurora`);

    const pages: [string, string][] = [
      ['home', '/'],
      ['registry', '/registry'],
      ['asset', '/assets/aurora'],
      ['asset-new', '/assets/new'],
      ['asset-edit', '/assets/aurora/edit'],
      ['activities', '/activities'],
      ['activity', '/activities/0'],
      ['users', '/users'],
      ['user', '/users/judy'],
      ['renderers', '/renderers'],
      ['account', '/account'],
      ['sessions', '/auth/sessions'],
      ['not-found', '/nowhere'],
    ];
    const anonymous = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const anonymousPage = await anonymous.newPage();
    const shots: string[] = [];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await anonymousPage.setViewportSize(viewport);
      for (const [name, path] of pages) {
        await go(path);
        const file = join(SCREENSHOT_DIR, `${name}-${size}.png`);
        await page.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
      for (const [name, path] of [
        ['login', '/login'],
        ['register', '/register'],
      ] as const) {
        await anonymousPage.goto(`${l2.url}${path}`);
        const file = join(SCREENSHOT_DIR, `${name}-${size}.png`);
        await anonymousPage.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
      // Nothing may overflow the viewport sideways except inside the scrollable table wrappers.
      await go('/registry');
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - window.innerWidth',
      )) as number;
      expect(overflow, `horizontal overflow at ${size}`).to.be.at.most(0);
    }
    await anonymous.close();
    expect(shots).to.have.length(2 * (pages.length + 2));
  });
});
