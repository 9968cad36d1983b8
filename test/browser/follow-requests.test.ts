// API.md §4.3 in a real browser: a locked account's follow requests accepted and rejected, and a follower removed,
// from their pages without JavaScript; both pages axe-clean (WCAG 2.2 AA) at every viewport.
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Persistence } from '../../src/application/ports/persistence.js';
import { aFollower, anAcceptJob, aUsername } from '../support/builders.js';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  VIEWPORTS,
} from '../support/chromium.js';
import { registerUser } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';
const ONE = 'https://one.example/users/ann';
const TWO = 'https://two.example/users/ben';
const THREE = 'https://three.example/users/cat';

describe('follow requests and followers in a real browser (Chromium)', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let db: Persistence;
  let context: BrowserContext;
  let page: Page;
  const alice = aUsername('alice');

  before(async function () {
    if (!chromiumAvailable()) return this.skip();
    browser = await launchChromium();
  });
  after(async () => browser?.close());

  beforeEach(async function () {
    if (!browser) return this.skip();
    // No worker: the Accepts and Rejects queued go nowhere.
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true, background: false });
    db = l2.parts.store;
    await registerUser(l2.url, 'alice', PASSWORD);
    for (const [actor, id] of [
      [ONE, 'r1'],
      [TWO, 'r2'],
    ] as const)
      await db.followRequests.add({
        id,
        username: alice,
        actor,
        inbox: `${actor}/inbox`,
        sharedInbox: null,
        followId: `${actor}/follows/1`,
        requestedAt: new Date(),
      });
    const follower = aFollower({ actor: THREE, inbox: `${THREE}/inbox` });
    await db.followers.add(follower, anAcceptJob(follower), new Date());
  });
  afterEach(async () => {
    await context?.close();
    await l2?.close();
  });

  async function signedIn(options: {
    javaScriptEnabled: boolean;
    viewport: { width: number; height: number };
  }) {
    context = await browser.newContext({ ...options, bypassCSP: options.javaScriptEnabled });
    page = await context.newPage();
    await page.goto(`${l2.url}/login`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${l2.url}/`);
  }

  it('accepts one request, rejects the other and removes a follower without JavaScript', async () => {
    await signedIn({ javaScriptEnabled: false, viewport: VIEWPORTS.phone });
    await page.goto(`${l2.url}/account`);
    await page.getByRole('link', { name: /Follow requests \(2 waiting\)/ }).click();
    await page.waitForURL(`${l2.url}/users/alice/follow_requests`);

    await page.getByRole('button', { name: `Accept ${ONE}` }).click();
    await page.waitForURL(`${l2.url}/users/alice/follow_requests`);
    await page.getByRole('button', { name: `Reject ${TWO}` }).click();
    await page.waitForURL(`${l2.url}/users/alice/follow_requests`);

    expect(await page.getByText('No follow request is waiting.').count()).to.equal(1);
    await page.getByRole('link', { name: 'Your followers' }).click();
    await page.waitForURL(`${l2.url}/users/alice/followers`);
    expect(await page.getByRole('link', { name: ONE }).count(), 'accepted: a follower').to.equal(1);
    expect(await page.getByRole('link', { name: TWO }).count(), 'rejected').to.equal(0);

    await page.getByRole('button', { name: `Remove ${THREE}` }).click();
    await page.waitForURL(`${l2.url}/users/alice/followers`);
    expect(await page.getByRole('link', { name: THREE }).count()).to.equal(0);
    expect(await db.followers.count({ username: alice })).to.equal(1);
  });

  it('keeps both pages axe-clean, with one h1 and every control labelled, at every viewport', async () => {
    const violations: string[] = [];
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await signedIn({ javaScriptEnabled: true, viewport });
      for (const path of ['/users/alice/follow_requests', '/users/alice/followers']) {
        await page.goto(`${l2.url}${path}`);
        const structure = await pageStructure(page);
        expect(structure.h1, `${size} ${path}`).to.equal(1);
        expect(structure.unlabelled, `${size} ${path}`).to.deep.equal([]);
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
        expect(overflow, `${size} ${path}: no sideways scrolling`).to.be.at.most(0);
        violations.push(...(await axeViolations(page)).map((v) => `${size} ${path}: ${v}`));
      }
      await context.close();
    }
    expect(violations).to.deep.equal([]);
  });
});
