// Blocking an actor from the blocks page (API.md §4.3) in a real browser, with JavaScript off: the page needs none.
// Every state of it — empty, with a block, a refused name — is axe-clean at every viewport.
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  VIEWPORTS,
} from '../support/chromium.js';
import { FedifyPeer } from '../support/fedify-peer.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSWORD = 'correct horse battery';

describe('the blocks page in a real browser (Chromium, JavaScript off)', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let peer: FedifyPeer;
  let context: BrowserContext;
  let page: Page;

  before(async function () {
    if (!chromiumAvailable()) return this.skip();
    browser = await launchChromium();
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
    peer = await FedifyPeer.start();
  });
  after(async () => {
    await browser?.close();
    await l2?.close();
    await peer?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
    page = await context.newPage();
  });
  afterEach(async () => context?.close());

  /** The page as it is now, audited in a browser with the same cookies at every viewport (axe itself needs JS). */
  async function audit(path: string): Promise<void> {
    const state = await context.storageState();
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const auditing = await browser.newContext({ viewport, bypassCSP: true, storageState: state });
      try {
        const view = await auditing.newPage();
        const scripts: string[] = [];
        view.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(r.url())));
        await view.goto(`${l2.url}${path}`);
        expect(await axeViolations(view), `${path} at ${name}`).to.deep.equal([]);
        expect(scripts, 'the page loads no script').to.deep.equal([]);
        const structure = await pageStructure(view);
        expect(structure).to.include({ h1: 1, main: 1 });
        expect(structure.unlabelled).to.deep.equal([]);
      } finally {
        await auditing.close();
      }
    }
  }

  it('blocks a follower from the Account page, refuses a bad name in place, and unblocks', async () => {
    await page.goto(`${l2.url}/register`);
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/`);
    const aliceActor = `${l2.url}/users/alice`;
    const follow = peer.follow(aliceActor);
    expect((await peer.send(`${l2.url}/users/alice/inbox`, follow)).status).to.equal(202);

    await page.goto(`${l2.url}/account`);
    await page.getByRole('link', { name: 'Blocked actors' }).click();
    await page.waitForURL(`${l2.url}/users/alice/blocks`);
    expect(await page.locator('h1').innerText()).to.equal('Blocked actors');
    expect(await page.locator('main').innerText()).to.contain('0 actors blocked');
    await audit('/users/alice/blocks');

    await page.getByLabel('Actor', { exact: true }).fill(aliceActor);
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    expect(await page.getByRole('alert').innerText()).to.equal('actor: You cannot block yourself.');
    expect(await page.getByLabel('Actor', { exact: true }).inputValue()).to.equal(aliceActor);

    await page.getByLabel('Actor', { exact: true }).fill(peer.actorId);
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await page.waitForURL(`${l2.url}/users/alice/blocks`);
    expect(await page.locator('main').innerText()).to.contain('1 actor blocked');
    expect(await page.getByRole('link', { name: peer.actorId }).count()).to.equal(1);
    await peer.waitFor((r) => r.body.type === 'Block');
    const followers = await client(l2.url).get('/users/alice/followers', {
      headers: { accept: 'application/activity+json' },
    });
    expect(followers.json.totalItems).to.equal(0);
    await audit('/users/alice/blocks');

    await page.getByRole('button', { name: `Unblock ${peer.actorId}` }).click();
    await page.waitForURL(`${l2.url}/users/alice/blocks`);
    expect(await page.locator('main').innerText()).to.contain('0 actors blocked');
    await peer.waitFor((r) => r.body.type === 'Undo');
  });
});
