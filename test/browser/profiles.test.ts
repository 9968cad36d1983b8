// Issue 25 in a real browser: assets shown as pictures (with their alt text, behind a warning when sensitive),
// hashtag pages, and profiles edited from the user's page — every new page axe-clean at phone and desktop width.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import {
  axeViolations,
  chromiumAvailable,
  launchChromium,
  pageStructure,
  SCREENSHOT_DIR,
  VIEWPORTS,
} from '../support/chromium.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { PICTURES, servePictures } from './pictures.js';

const PASSWORD = 'correct horse battery';
const AP = 'application/activity+json';
const SUNSET_ALT = 'An orange sun sinking into a calm sea, its light a path across the water.';
const PORTRAIT_ALT = 'Head and shoulders of a person in a dark blue jumper against a teal wall.';
const HARBOUR_ALT = 'Green hills above a harbour, the water striped with light.';
const BIO = 'Painter of harbours.\nMostly at dusk.\n\nPrints: https://pia.example/prints';

/** What a picture's element says once the browser has tried to load it (typed here: no DOM types in tests). */
interface Img {
  decode(): Promise<void>;
  readonly naturalWidth: number;
}
/** The width of the picture as decoded: it loaded, past the page's CSP, and it is an image. */
const decodedWidth = (img: Locator) => img.evaluate((el: Img) => el.decode().then(() => el.naturalWidth));

/** Runs in the page: loads every rendered picture now (a full-page screenshot shows those below the fold too). */
const LOAD_PICTURES = `Promise.all([...document.images]
  .filter((img) => img.getClientRects().length > 0)
  .map((img) => { img.loading = 'eager'; return img.decode().catch(() => null); }))`;

describe('pictures and profiles in a real browser (Chromium)', function () {
  // A guard against a hang, not a speed check: each step waits for its event, however busy the machine.
  this.timeout(600_000);
  let browser: Browser;
  let l2: TestServer;
  let context: BrowserContext;
  let page: Page;
  /** Every request the pages made for a picture. */
  let pictureRequests: Request[];
  const api = () => client(l2.url);

  before(async function () {
    if (!chromiumAvailable()) return this.skip();
    browser = await launchChromium();
    l2 = await startTestServer({ store: 'sqlite', publicUrlIsServer: true });
  });
  after(async () => {
    await browser?.close();
    await l2?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    pictureRequests = await servePictures(context);
    page = await context.newPage();
  });
  afterEach(async () => context?.close());

  const go = (path: string) => page.goto(`${l2.url}${path}`);

  async function register(username: string): Promise<string> {
    await go('/register');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/`);
    // Another session of the same person, for the API calls that set up assets.
    const login = await api().post('/auth/login', { username, password: PASSWORD });
    return login.json.access_token as string;
  }

  async function createAsset(token: string, name: string, fields: Record<string, unknown>): Promise<void> {
    const body = {
      name,
      content_hash: `sha256:${createHash('sha256').update(name).digest('hex')}`,
      media_type: 'image/png',
      ...fields,
    };
    const response = await api().post('/assets', body, { token });
    expect(response.status, response.text).to.equal(201);
  }

  const jsonOf = async (path: string, accept = 'application/json') => {
    const response = await api().get(path, { headers: { accept } });
    expect(response.status, `${path}: ${response.text}`).to.equal(200);
    return response.json;
  };

  const alternateLink = () => page.locator(`head link[rel="alternate"][type="${AP}"]`).getAttribute('href');

  it('registers an image asset with an https URL and alt text; its page shows the picture with that alt text, loaded without a referrer, and its tags link to their pages', async () => {
    await register('nora');
    await go('/assets/new');
    await page.getByLabel('Name', { exact: true }).fill('sunset');
    await page.getByLabel('Content hash').fill(`sha256:${'5a'.repeat(32)}`);
    await page.getByLabel('Media type').fill('image/png');
    await page.getByLabel('URL (optional)').fill(`${PICTURES}/sunset.png`);
    await page.getByLabel('Description (optional)').fill('Evening at the harbour mouth.');
    await page.getByLabel('Alt text (optional)').fill(SUNSET_ALT);
    await page.getByLabel('Tags (optional)').fill('art, Sea');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${l2.url}/assets/sunset`);

    const picture = page.getByRole('img', { name: SUNSET_ALT });
    expect(await picture.getAttribute('src')).to.equal(`${PICTURES}/sunset.png`);
    expect(await picture.getAttribute('alt')).to.equal(SUNSET_ALT);
    expect(await picture.getAttribute('referrerpolicy')).to.equal('no-referrer');
    expect(await picture.getAttribute('loading')).to.equal('lazy');
    expect(await decodedWidth(picture)).to.equal(640);
    const fetched = pictureRequests.filter((r) => r.url() === `${PICTURES}/sunset.png`);
    expect(fetched).to.have.length.at.least(1);
    for (const request of fetched) expect(await request.headerValue('referer')).to.equal(null);
    expect(await page.locator('main .details').innerText()).to.contain(SUNSET_ALT);
    expect(await alternateLink()).to.equal(`${l2.url}/assets/sunset`);

    const asset = await jsonOf('/assets/sunset');
    expect(asset).to.include({ alt_text: SUNSET_ALT, sensitive: false });

    await page.getByRole('link', { name: '#Sea' }).click();
    await page.waitForURL(`${l2.url}/tags/Sea`);
    expect(await page.locator('h1').innerText()).to.equal('#Sea');
    expect(await page.locator('main tbody').getByRole('link', { name: 'sunset' }).count()).to.equal(1);
    // Tags compare in any case: the registry's own link to the lower-case tag finds it too.
    await page.locator('main tbody').getByRole('link', { name: '#art' }).click();
    await page.waitForURL(`${l2.url}/tags/art`);
    expect(await page.locator('main tbody tr').count()).to.equal(1);
  });

  it('marks an asset sensitive from its edit form: the picture waits behind a disclosure until asked for', async () => {
    const token = await register('otto');
    await createAsset(token, 'lagoon', { url: `${PICTURES}/sunset.png`, alt_text: SUNSET_ALT });
    await go('/assets/lagoon/edit');
    expect(await page.getByLabel('Alt text (optional)').inputValue()).to.equal(SUNSET_ALT);
    expect(await page.getByLabel('Sensitive').isChecked()).to.equal(false);
    await page.getByLabel('Sensitive').check();
    await page.getByLabel('Alt text (optional)').fill('A lagoon at dusk.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${l2.url}/assets/lagoon`);

    expect(await jsonOf('/assets/lagoon')).to.include({ sensitive: true, alt_text: 'A lagoon at dusk.' });
    const picture = page.locator('figure.picture img');
    expect(await picture.getAttribute('alt')).to.equal('A lagoon at dusk.');
    expect(await picture.isVisible()).to.equal(false);
    await page.getByText('Sensitive picture: show it').click();
    expect(await picture.isVisible()).to.equal(true);
    expect(await decodedWidth(picture)).to.equal(640);

    await go('/assets/lagoon/edit');
    expect(await page.getByLabel('Sensitive').isChecked()).to.equal(true);
    await page.getByLabel('Sensitive').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${l2.url}/assets/lagoon`);
    expect(await jsonOf('/assets/lagoon')).to.include({ sensitive: false });
    expect(await page.locator('details.sensitive').count()).to.equal(0);
    expect(await page.getByRole('img', { name: 'A lagoon at dusk.' }).isVisible()).to.equal(true);
  });

  /**
   * The assets of a profile (asset names are global: each is the user's name and a word): three https pictures, a
   * text and a picture at a plain http URL.
   */
  async function profileAssets(token: string, user: string) {
    const names = {
      portrait: `${user}-portrait`,
      harbour: `${user}-harbour`,
      sunset: `${user}-sunset`,
      notes: `${user}-notes`,
      oldScan: `${user}-old-scan`,
    };
    await createAsset(token, names.portrait, { url: `${PICTURES}/portrait.png`, alt_text: PORTRAIT_ALT });
    await createAsset(token, names.harbour, {
      url: `${PICTURES}/harbour.png`,
      alt_text: HARBOUR_ALT,
      tags: ['art'],
    });
    await createAsset(token, names.sunset, {
      url: `${PICTURES}/sunset.png`,
      alt_text: SUNSET_ALT,
      description: 'Evening at the harbour mouth.',
      tags: ['art', 'sea'],
    });
    await createAsset(token, names.notes, {
      media_type: 'text/plain',
      url: null,
      description: 'Colours mixed this week.',
    });
    await createAsset(token, names.oldScan, { url: 'http://pictures.example/old-scan.png' });
    return names;
  }

  it('edits a profile end to end: from the user page to the form and back, shown first on the page, in the JSON user and in the actor', async () => {
    const token = await register('pia');
    const { portrait, harbour, sunset, notes } = await profileAssets(token, 'pia');

    await page.locator('header nav').getByRole('link', { name: 'pia' }).click();
    await page.waitForURL(`${l2.url}/users/pia`);
    await page.getByRole('link', { name: 'Edit your profile' }).click();
    await page.waitForURL(`${l2.url}/users/pia/edit`);
    expect(await page.locator('h1').innerText()).to.equal('Edit your profile');

    // The pictures to choose from are the https images only, each shown with its name.
    const gallery = page.locator('.gallery figure');
    const pictures = [harbour, portrait, sunset].sort();
    expect((await gallery.locator('figcaption').allInnerTexts()).sort()).to.deep.equal(pictures);
    for (const img of await gallery.locator('img').all()) expect(await decodedWidth(img)).to.be.above(0);
    const choices = await page.getByLabel('Avatar').locator('option').allInnerTexts();
    expect(choices[0]).to.equal('None');
    expect(choices.slice(1).sort()).to.deep.equal(pictures);

    await page.getByLabel('Display name').fill('Pia Example');
    await page.getByLabel('Bio').fill(BIO);
    await page.getByLabel('Avatar').selectOption(portrait);
    await page.getByLabel('Header').selectOption(harbour);
    const field = (n: number) => page.getByRole('group', { name: `Field ${n}` });
    await field(1).getByLabel('Name').fill('Website');
    await field(1).getByLabel('Value').fill('https://pia.example/');
    await field(2).getByLabel('Name').fill('Medium');
    await field(2).getByLabel('Value').fill('Oil on board');
    await page.getByLabel('Pinned assets').fill(`${sunset}, ${notes}`);
    await page.getByLabel('Searchable').check();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL(`${l2.url}/users/pia`);

    // The page: the header, the avatar, the name, the bio, the fields, then the pins before everything else.
    expect(await page.locator('h1').innerText()).to.equal('Pia Example');
    expect(await page.locator('main').innerText()).to.contain('@pia@');
    const avatar = page.getByRole('img', { name: PORTRAIT_ALT });
    expect(await avatar.getAttribute('src')).to.equal(`${PICTURES}/portrait.png`);
    expect(await decodedWidth(avatar)).to.equal(256);
    const header = page.getByRole('img', { name: HARBOUR_ALT });
    expect(await header.getAttribute('src')).to.equal(`${PICTURES}/harbour.png`);
    expect(await decodedWidth(header)).to.equal(1200);
    const paragraphs = page.locator('.bio p');
    expect(await paragraphs.count()).to.equal(2);
    expect(await paragraphs.nth(0).innerText()).to.equal('Painter of harbours.\nMostly at dusk.');
    expect(await paragraphs.nth(0).innerHTML()).to.equal('Painter of harbours.<br>Mostly at dusk.');
    expect(await paragraphs.nth(1).innerText()).to.equal('Prints: https://pia.example/prints');
    expect(await page.locator('dl.fields dt').allInnerTexts()).to.deep.equal(['Website', 'Medium']);
    expect(await page.locator('dl.fields dd').allInnerTexts()).to.deep.equal([
      'https://pia.example/',
      'Oil on board',
    ]);
    const website = page.locator('dl.fields').getByRole('link', { name: 'https://pia.example/' });
    expect(await website.getAttribute('href')).to.equal('https://pia.example/');
    expect(await website.getAttribute('rel')).to.equal('me nofollow noopener');
    expect(await page.locator('ul.pins li strong').allInnerTexts()).to.deep.equal([sunset, notes]);
    expect(await decodedWidth(page.locator('ul.pins').getByRole('img', { name: SUNSET_ALT }))).to.equal(640);
    const headings = await page.locator('main h2').allInnerTexts();
    expect(headings[0]).to.equal('Pinned');
    expect(headings.indexOf('Pinned')).to.be.below(headings.indexOf('Assets'));
    expect(await alternateLink()).to.equal(`${l2.url}/users/pia`);

    // The JSON user and the actor say the same.
    const user = await jsonOf('/users/pia');
    // A browser sends a textarea's line breaks as CRLF; they are kept as sent (as in descriptions).
    expect(user.bio.replace(/\r\n/g, '\n')).to.equal(BIO);
    expect(user).to.deep.include({
      display_name: 'Pia Example',
      avatar: portrait,
      header: harbour,
      fields: [
        { name: 'Website', value: 'https://pia.example/' },
        { name: 'Medium', value: 'Oil on board' },
      ],
      pinned: [sunset, notes],
      indexable: true,
    });
    const actor = await jsonOf('/users/pia', AP);
    expect(actor.name).to.equal('Pia Example');
    expect(actor.summary).to.equal(
      '<p>Painter of harbours.<br>Mostly at dusk.</p><p>Prints: <a href="https://pia.example/prints" rel="nofollow noopener">https://pia.example/prints</a></p>',
    );
    expect(actor.icon).to.deep.include({
      type: 'Image',
      url: `${PICTURES}/portrait.png`,
      name: PORTRAIT_ALT,
    });
    expect(actor.image).to.deep.include({ type: 'Image', url: `${PICTURES}/harbour.png`, name: HARBOUR_ALT });
    expect(actor.attachment).to.have.length(2);
    expect(actor.attachment[0]).to.include({ type: 'PropertyValue', name: 'Website' });
    expect(actor.attachment[0].value)
      .to.contain('href="https://pia.example/"')
      .and.contain('rel="me nofollow noopener"');
    expect(actor.attachment[1]).to.include({ type: 'PropertyValue', name: 'Medium', value: 'Oil on board' });
    expect(actor.indexable).to.equal(true);
    const featured = await jsonOf(new URL(actor.featured as string).pathname, AP);
    expect(featured.orderedItems.map((note: { id: string }) => note.id)).to.deep.equal([
      `${l2.url}/assets/${sunset}`,
      `${l2.url}/assets/${notes}`,
    ]);

    // The form opens again, from the Account page this time, with what was saved.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('link', { name: 'Edit your profile' }).click();
    await page.waitForURL(`${l2.url}/users/pia/edit`);
    expect(await page.getByLabel('Display name').inputValue()).to.equal('Pia Example');
    expect(await page.getByLabel('Bio').inputValue()).to.equal(BIO);
    expect(await page.getByLabel('Avatar').inputValue()).to.equal(portrait);
    expect(await page.getByLabel('Header').inputValue()).to.equal(harbour);
    expect(await field(1).getByLabel('Value').inputValue()).to.equal('https://pia.example/');
    expect(await field(3).getByLabel('Name').inputValue()).to.equal('');
    expect(await page.getByLabel('Pinned assets').inputValue()).to.equal(`${sunset}, ${notes}`);
    expect(await page.getByLabel('Searchable').isChecked()).to.equal(true);
  });

  it('refuses an edit with its reason in role="alert", every value kept: a pin that does not exist, a display name of 101 characters', async () => {
    const token = await register('quinn');
    const { portrait, sunset } = await profileAssets(token, 'quinn');
    await go('/users/quinn/edit');
    const field = (n: number) => page.getByRole('group', { name: `Field ${n}` });
    await page.getByLabel('Display name').fill('Quinn');
    await page.getByLabel('Bio').fill(BIO);
    await page.getByLabel('Avatar').selectOption(portrait);
    await field(1).getByLabel('Name').fill('Website');
    await field(1).getByLabel('Value').fill('https://quinn.example/');
    await page.getByLabel('Pinned assets').fill(`${sunset}, nobody-has-this`);
    await page.getByLabel('Searchable').check();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('alert').waitFor();

    expect(await page.getByRole('alert').innerText()).to.contain('pinned');
    const kept = async (displayName: string) => {
      expect(await page.getByLabel('Display name').inputValue()).to.equal(displayName);
      expect(await page.getByLabel('Bio').inputValue()).to.equal(BIO);
      expect(await page.getByLabel('Avatar').inputValue()).to.equal(portrait);
      expect(await page.getByLabel('Header').inputValue()).to.equal('');
      expect(await field(1).getByLabel('Name').inputValue()).to.equal('Website');
      expect(await field(1).getByLabel('Value').inputValue()).to.equal('https://quinn.example/');
      expect(await page.getByLabel('Pinned assets').inputValue()).to.equal(`${sunset}, nobody-has-this`);
      expect(await page.getByLabel('Searchable').isChecked()).to.equal(true);
    };
    await kept('Quinn');

    // The form caps the name at 100 characters; a client that ignores the cap meets the service's own rule.
    const long = 'Q'.repeat(101);
    expect(await page.getByLabel('Display name').getAttribute('maxlength')).to.equal('100');
    await page
      .getByLabel('Display name')
      .evaluate((el: { removeAttribute(name: string): void }) => el.removeAttribute('maxlength'));
    await page.getByLabel('Display name').fill(long);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).to.contain('100 characters');
    await kept(long);
    expect(await page.locator('h1').count()).to.equal(1);

    expect(await jsonOf('/users/quinn')).to.deep.include({ display_name: null, bio: null, pinned: [] });
  });

  it('passes the structure rules and an axe-core WCAG 2.2 AA audit on every new page, signed in and out, at desktop and phone width, and takes their screenshots', async () => {
    const token = await register('rosa');
    const { portrait, harbour, sunset, notes } = await profileAssets(token, 'rosa');
    const sensitive = { url: `${PICTURES}/sunset.png`, alt_text: SUNSET_ALT, sensitive: true };
    await createAsset(token, 'night-swim', sensitive);
    const profile = await api().send(
      'PATCH',
      '/users/rosa',
      {
        display_name: 'Rosa Example',
        bio: BIO,
        avatar: portrait,
        header: harbour,
        fields: [
          { name: 'Website', value: 'https://rosa.example/' },
          { name: 'Medium', value: 'Oil on board' },
          { name: 'Studio', value: 'Harbour Street 4, top floor' },
        ],
        pinned: [sunset, 'night-swim', notes],
      },
      { token },
    );
    expect(profile.status, profile.text).to.equal(200);

    /** A page reached by its path, or the profile form refused (its alert shown). */
    type Audited = { readonly name: string; readonly path: string; readonly refuse?: boolean };
    const owner: Audited[] = [
      { name: 'profile-edit', path: '/users/rosa/edit' },
      { name: 'profile-edit-refused', path: '/users/rosa/edit', refuse: true },
      { name: 'user-profile', path: '/users/rosa' },
      { name: 'asset-picture', path: `/assets/${sunset}` },
      { name: 'asset-sensitive', path: '/assets/night-swim' },
      { name: 'asset-edit-picture', path: `/assets/${sunset}/edit` },
      { name: 'tag', path: '/tags/art' },
      { name: 'tag-empty', path: '/tags/nobody-uses-this' },
      { name: 'account-profile-link', path: '/account' },
    ];
    const visitor: Audited[] = [
      { name: 'user-profile-visitor', path: '/users/rosa' },
      { name: 'asset-picture-visitor', path: `/assets/${sunset}` },
      { name: 'tag-visitor', path: '/tags/sea' },
    ];
    // axe is injected as a script: these contexts alone let it past the pages' CSP.
    const signedIn = await browser.newContext({
      bypassCSP: true,
      storageState: await context.storageState(),
    });
    const signedOut = await browser.newContext({ bypassCSP: true });
    const violations: string[] = [];
    const shots: string[] = [];
    try {
      for (const [who, ctx, targets] of [
        ['signed in', signedIn, owner],
        ['signed out', signedOut, visitor],
      ] as const) {
        await servePictures(ctx);
        const auditPage = await ctx.newPage();
        for (const [size, viewport] of Object.entries(VIEWPORTS)) {
          await auditPage.setViewportSize(viewport);
          for (const target of targets) {
            const response = await auditPage.goto(`${l2.url}${target.path}`);
            expect(response?.status(), target.path).to.equal(200);
            if (target.refuse) {
              await auditPage.getByLabel('Pinned assets').fill('nobody-has-this');
              await auditPage.getByRole('button', { name: 'Save profile' }).click();
              await auditPage.getByRole('alert').waitFor();
            }
            const where = `${target.name} (${who}, ${size})`;
            const structure = await pageStructure(auditPage);
            expect(structure, where).to.deep.include({ h1: 1, main: 1, unlabelled: [], lang: 'en' });
            expect(structure.nav, where).to.be.at.least(1);
            // Nothing overflows sideways (tables scroll inside their wrappers).
            const overflow = (await auditPage.evaluate(
              'document.documentElement.scrollWidth - window.innerWidth',
            )) as number;
            expect(overflow, `horizontal overflow: ${where}`).to.be.at.most(0);
            violations.push(...(await axeViolations(auditPage)).map((v) => `${where}: ${v}`));
            // The whole page in the picture: every picture shown loaded first (lazy ones too).
            await auditPage.evaluate(LOAD_PICTURES);
            const file = join(SCREENSHOT_DIR, `${target.name}-${size}.png`);
            await auditPage.screenshot({ path: file, fullPage: true });
            shots.push(file);
          }
        }
      }
    } finally {
      await signedIn.close();
      await signedOut.close();
    }
    expect(violations).to.deep.equal([]);
    expect(shots).to.have.length(2 * (owner.length + visitor.length));
  });
});
