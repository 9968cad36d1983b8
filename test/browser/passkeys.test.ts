// Passkeys and two-step sign-in in the real Chromium: its virtual authenticator (the DevTools protocol's WebAuthn
// domain, through playwright-core's CDP session) stands in for a phone or a security key, and the page's own script
// runs the ceremony. PUBLIC_URL is http://localhost:<port>: a relying party id must be a domain, and localhost is a
// secure context.
import { expect } from 'chai';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  SCREENSHOT_DIR,
  VIEWPORTS,
} from '../support/chromium.js';
import { codeAt } from '../support/rfc6238.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';

/** A Chromium context with a virtual authenticator of its own: a person's device. */
interface Device {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly authenticatorId: string;
}

const payload = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('passkeys and two-step sign-in in a real browser (Chromium’s virtual authenticator)', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  const devices: Device[] = [];

  before(async function () {
    if (!chromiumAvailable()) return this.skip();
    browser = await launchChromium();
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: 'localhost' });
  });
  after(async () => {
    await browser?.close();
    await l2?.close();
  });
  afterEach(async () => {
    for (const device of devices.splice(0)) await device.context.close();
  });

  /** A new device: a context (with bypassed CSP only for axe), its page, and its own virtual authenticator. */
  async function device(options: { bypassCSP?: boolean } = {}): Promise<Device> {
    const context = await browser.newContext({
      viewport: VIEWPORTS.desktop,
      bypassCSP: options.bypassCSP ?? false,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const made = { context, page, cdp, authenticatorId };
    devices.push(made);
    return made;
  }

  const go = (page: Page, path: string) => page.goto(`${l2.config.publicUrl}${path}`);
  const navText = (page: Page) => page.locator('header nav').innerText();
  const sessionToken = async (d: Device) =>
    (await d.context.cookies()).find((c) => c.name === 'l2_token')?.value;
  const credentials = async (d: Device) =>
    (await d.cdp.send('WebAuthn.getCredentials', { authenticatorId: d.authenticatorId })).credentials;

  async function register(page: Page, username: string): Promise<void> {
    await go(page, '/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.config.publicUrl}/`);
  }

  async function addPasskey(page: Page, name: string): Promise<void> {
    await go(page, '/account');
    await page.getByLabel('Name it').fill(name);
    await page.locator('#add_passkey_password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add a passkey', exact: true }).click();
    await page.waitForURL(`${l2.config.publicUrl}/account?done=passkey-added`);
  }

  async function logOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${l2.config.publicUrl}/`);
  }

  it('registers, adds a passkey, signs out, signs in with it and no username, and removes it', async () => {
    const laptop = await device();
    const { page } = laptop;
    await register(page, 'alice');
    await addPasskey(page, 'Laptop');
    expect(await page.locator('.notice').innerText()).to.contain('Your passkey was added');
    expect(await page.locator('.passkeys li strong').allInnerTexts()).to.deep.equal(['Laptop']);
    const stored = await credentials(laptop);
    expect(stored).to.have.length(1);
    expect(stored[0]!.isResidentCredential).to.equal(true);
    expect(stored[0]!.rpId).to.equal('localhost');

    await logOut(page);
    await go(page, '/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${l2.config.publicUrl}/`);
    expect(await navText(page)).to.contain('Signed in as alice');
    expect(payload((await sessionToken(laptop))!).amr).to.deep.equal(['hwk', 'mfa']);
    expect((await credentials(laptop))[0]!.signCount).to.be.greaterThan(stored[0]!.signCount);

    await go(page, '/account');
    expect(await page.locator('.passkeys li .muted').innerText()).to.match(/last used \d{4}-\d\d-\d\d/);
    await page.locator('#remove_1_password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Remove the passkey Laptop' }).click();
    await page.waitForURL(`${l2.config.publicUrl}/account?done=passkey-removed`);
    expect(await page.getByText('You have no passkey yet.').count()).to.equal(1);
    expect(await page.locator('table').innerText()).to.match(
      /Passkey removed: Laptop[\s\S]*Passkey added: Laptop/,
    );

    // The device still holds the credential; the service no longer knows it. The password still signs in.
    await logOut(page);
    await go(page, '/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).to.contain('The passkey was not accepted');
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${l2.config.publicUrl}/`);
    expect(await navText(page)).to.contain('Signed in as alice');
  });

  it('never lets a second authenticator’s passkey of another user sign in as this one', async () => {
    const alices = await device();
    await register(alices.page, 'carol');
    await addPasskey(alices.page, 'Carol’s phone');
    const bobs = await device();
    await register(bobs.page, 'dan');
    await addPasskey(bobs.page, 'Dan’s key');

    // Dan's device signs in: it is Dan, whoever signed in last on the service.
    await logOut(bobs.page);
    await go(bobs.page, '/login');
    await bobs.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await bobs.page.waitForURL(`${l2.config.publicUrl}/`);
    expect(await navText(bobs.page)).to.contain('Signed in as dan');
    expect(await navText(bobs.page)).not.to.contain('carol');

    // Carol signs in by password on Dan's device and tries to confirm a change with the passkey there: refused.
    await logOut(bobs.page);
    await go(bobs.page, '/login');
    await bobs.page.getByLabel('Username').fill('carol');
    await bobs.page.getByLabel('Password').fill(PASSWORD);
    await bobs.page.getByRole('button', { name: 'Log in' }).click();
    await bobs.page.waitForURL(`${l2.config.publicUrl}/`);
    await go(bobs.page, '/account');
    await bobs.page
      .getByRole('button', { name: 'Remove, confirming with a passkey (Carol’s phone)' })
      .click();
    await bobs.page.getByRole('alert').waitFor();
    expect(await bobs.page.getByRole('alert').innerText()).to.contain('the passkey was not accepted');
    await go(bobs.page, '/account');
    expect(await bobs.page.locator('.passkeys li strong').allInnerTexts()).to.deep.equal(['Carol’s phone']);

    // On Carol's own device the same button works.
    await go(alices.page, '/account');
    await alices.page
      .getByRole('button', { name: 'Remove, confirming with a passkey (Carol’s phone)' })
      .click();
    await alices.page.waitForURL(`${l2.config.publicUrl}/account?done=passkey-removed`);
  });

  it('turns two-step sign-in on with the QR code’s secret, and signs in with a code of the app', async () => {
    const phone = await device();
    const { page } = phone;
    await register(page, 'erin');
    await go(page, '/account');
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    await page.locator('img.qr-code').waitFor();
    // Drawn by the browser from its data: URL (allowed by the CSP's img-src data:).
    const drawn =
      "(() => { const img = document.querySelector('img.qr-code'); return img.complete && img.naturalWidth > 0; })()";
    expect(await page.evaluate(drawn)).to.equal(true);
    const secret = (await page.locator('code.secret').innerText()).replace(/\s/g, '');
    await page.getByLabel('The code the app shows').fill(codeAt(secret, new Date()));
    await page.locator('#totp_on_password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn two-step sign-in on' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.locator('ol.recovery-codes code').allInnerTexts();
    expect(codes).to.have.length(10);

    await page.getByRole('link', { name: 'I saved them' }).click();
    expect(await page.content()).not.to.contain(codes[0]!);
    await logOut(page);
    await go(page, '/login');
    await page.getByLabel('Username').fill('erin');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    expect(await sessionToken(phone)).to.equal(undefined);
    // The app's next code (the one used to turn it on may not be used again).
    await page.getByLabel('Code from your app').fill(codeAt(secret, new Date(Date.now() + 30_000)));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${l2.config.publicUrl}/`);
    expect(await navText(page)).to.contain('Signed in as erin');
    expect(payload((await sessionToken(phone))!).amr).to.deep.equal(['pwd', 'otp', 'mfa']);
  });

  it('passes axe (WCAG 2.2 AA) on every new page at both widths, each with one h1, a main, a nav and labels', async () => {
    const owner = await device({ bypassCSP: true });
    const { page } = owner;
    await register(page, 'gina');
    await addPasskey(page, 'Phone');
    const reset = await l2.parts.useCases.createResetLink.execute({ username: 'gina', clearFactors: true });
    if (!reset.ok) throw new Error('no reset link');

    /** Each page, reached the way a person reaches it (some are answers to a form). */
    const audits: { name: string; open: (p: Page) => Promise<unknown> }[] = [
      { name: 'account-security', open: (p) => go(p, '/account') },
      {
        name: 'totp-setup',
        open: async (p) => {
          await go(p, '/account');
          await p.getByRole('button', { name: 'Set up two-step sign-in' }).click();
          await p.locator('img.qr-code').waitFor();
        },
      },
      {
        name: 'totp-setup-refused',
        open: async (p) => {
          await p.getByLabel('The code the app shows').fill('000000');
          await p.locator('#totp_on_password').fill('not the password');
          await p.getByRole('button', { name: 'Turn two-step sign-in on' }).click();
          await p.getByRole('alert').waitFor();
        },
      },
      {
        name: 'recovery-codes',
        open: async (p) => {
          await go(p, '/account');
          await p.getByRole('button', { name: 'Set up two-step sign-in' }).click();
          const secret = (await p.locator('code.secret').innerText()).replace(/\s/g, '');
          await p.getByLabel('The code the app shows').fill(codeAt(secret, new Date()));
          await p.locator('#totp_on_password').fill(PASSWORD);
          await p.getByRole('button', { name: 'Turn two-step sign-in on' }).click();
          await p.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
          // Off again, so that the next round (the other width) sets it up from the start.
          const token = (await p.context().cookies()).find((c) => c.name === 'l2_token')!.value;
          await fetch(`${l2.url}/auth/totp/disable`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ current_password: PASSWORD }),
          });
        },
      },
      { name: 'account-with-history', open: (p) => go(p, '/account') },
    ];
    const signedOut: { name: string; open: (p: Page) => Promise<unknown> }[] = [
      { name: 'login-with-passkey', open: (p) => go(p, '/login') },
      { name: 'reset', open: (p) => go(p, `/auth/reset?token=${reset.value.token}`) },
      { name: 'reset-gone', open: (p) => go(p, '/auth/reset?token=no-such-link') },
    ];
    const violations: string[] = [];
    const shots: string[] = [];
    const visitor = await device({ bypassCSP: true });
    for (const [who, d, pages] of [
      ['signed in', owner, audits],
      ['signed out', visitor, signedOut],
    ] as const) {
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await d.page.setViewportSize(viewport);
        for (const target of pages) {
          await target.open(d.page);
          const where = `${target.name} (${who}, ${size})`;
          const structure = await pageStructure(d.page);
          expect(structure, where).to.deep.include({ h1: 1, main: 1, unlabelled: [], lang: 'en' });
          expect(structure.nav, where).to.be.at.least(1);
          const overflow = (await d.page.evaluate(
            'document.documentElement.scrollWidth - window.innerWidth',
          )) as number;
          expect(overflow, `horizontal overflow: ${where}`).to.be.at.most(0);
          violations.push(...(await axeViolations(d.page)).map((v) => `${where}: ${v}`));
          const file = join(SCREENSHOT_DIR, `${target.name}-${size}.png`);
          await d.page.screenshot({ path: file, fullPage: true });
          shots.push(file);
        }
      }
    }
    // The second step's page, reached by a password login of an account with two-step sign-in on.
    const stepper = await device({ bypassCSP: true });
    await register(stepper.page, 'hank');
    await go(stepper.page, '/account');
    await stepper.page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    const secret = (await stepper.page.locator('code.secret').innerText()).replace(/\s/g, '');
    await stepper.page.getByLabel('The code the app shows').fill(codeAt(secret, new Date()));
    await stepper.page.locator('#totp_on_password').fill(PASSWORD);
    await stepper.page.getByRole('button', { name: 'Turn two-step sign-in on' }).click();
    await stepper.page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await logOut(stepper.page);
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await stepper.page.setViewportSize(viewport);
      await go(stepper.page, '/login');
      await stepper.page.getByLabel('Username').fill('hank');
      await stepper.page.getByLabel('Password').fill(PASSWORD);
      await stepper.page.getByRole('button', { name: 'Log in' }).click();
      await stepper.page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      for (const [name, refuse] of [
        ['login-step', false],
        ['login-step-refused', true],
      ] as const) {
        if (refuse) {
          await stepper.page.getByLabel('Code from your app').fill('000000');
          await stepper.page.getByRole('button', { name: 'Sign in', exact: true }).click();
          await stepper.page.getByRole('alert').waitFor();
        }
        const where = `${name} (signed out, ${size})`;
        const structure = await pageStructure(stepper.page);
        expect(structure, where).to.deep.include({ h1: 1, main: 1, unlabelled: [], lang: 'en' });
        violations.push(...(await axeViolations(stepper.page)).map((v) => `${where}: ${v}`));
        const file = join(SCREENSHOT_DIR, `${name}-${size}.png`);
        await stepper.page.screenshot({ path: file, fullPage: true });
        shots.push(file);
      }
    }
    expect(violations).to.deep.equal([]);
    expect(shots).to.have.length(2 * (audits.length + signedOut.length + 2));
  });
});
