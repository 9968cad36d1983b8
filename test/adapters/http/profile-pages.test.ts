// The pages of issue 25 over real HTTP (API.md §4.1, §4.2, §6): the picture on an asset page, the profile on a
// user page, the profile form and its refusals, the tag page, the asset forms' new fields — everything a person
// typed shown escaped, never as markup.
import { expect } from 'chai';
import { FormBrowser } from '../../support/browser.js';
import { client, registerUser, type HttpResponse } from '../../support/http.js';
import type { TestServer } from '../../support/test-server.js';
import { PASSWORD, startServer, STORES } from './helpers.js';
import { contentHash } from './registry/support.js';

const HTML = { headers: { accept: 'text/html' } };
const JSON_ACCEPT = { headers: { accept: 'application/json' } };
const SCRIPT = '<script>alert(1)</script>';
const ATTRIBUTE = '"><img src=x onerror=alert(1)>';
/** Tags are single words: the attribute-breaking payload without its spaces. */
const ATTRIBUTE_TAG = '"><b/onmouseover=alert(1)>';

/** What an HTML-escaping template turns a string into (either quote escaping is fine). */
function escapedForms(raw: string): string[] {
  const base = raw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [base.replace(/"/g, '&quot;'), base.replace(/"/g, '&#34;'), base.replace(/"/g, '&#x22;')];
}

function expectEscaped(html: string, raw: string, where: string): void {
  expect(html, `${where}: the raw ${raw}`).to.not.include(raw);
  expect(
    escapedForms(raw).some((form) => html.includes(form)),
    `${where}: the escaped form of ${raw}`,
  ).to.equal(true);
}

/** The start tags of `tag` in the page (attributes as written). */
const tagsNamed = (html: string, tag: string): string[] =>
  html.match(new RegExp(`<${tag}\\b[^>]*>`, 'gi')) ?? [];

/** The value of one attribute in a start tag, unescaped of the quote. */
const attribute = (startTag: string, name: string): string | null =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(startTag)?.[1] ?? null;

/** The page's <main>, where the pages put what the user wrote. */
const mainOf = (html: string): string => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

function expectPage(response: HttpResponse, status = 200): string {
  expect(response.status, response.text.slice(0, 400)).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^text\/html/);
  return response.text;
}

for (const store of STORES) {
  describe(`the pages of pictures and profiles (${store})`, () => {
    let server: TestServer;
    let api: ReturnType<typeof client>;
    let token: string;

    const createAsset = async (name: string, fields: Record<string, unknown> = {}) => {
      const response = await api.post(
        '/assets',
        { name, content_hash: contentHash(name), media_type: 'image/png', ...fields },
        { token },
      );
      expect(response.status, response.text).to.equal(201);
    };
    const patchProfile = async (changes: Record<string, unknown>, as = token) => {
      const response = await api.send('PATCH', '/users/alice', changes, { token: as });
      expect(response.status, response.text).to.equal(200);
      return response.json;
    };
    const page = async (path: string, status = 200) => expectPage(await api.get(path, HTML), status);

    /** A browser signed in as `username` through the login form, holding a CSRF token from a rendered page. */
    async function signedInBrowser(username: string, path = '/account'): Promise<FormBrowser> {
      const b = new FormBrowser(server.url);
      await b.get('/login');
      const login = await b.submit('/auth/login', { username, password: PASSWORD });
      expect(login.status, login.text).to.equal(303);
      expect((await b.get(path)).status).to.equal(200);
      return b;
    }

    beforeEach(async () => {
      server = await startServer(store);
      api = client(server.url);
      token = await registerUser(server.url, 'alice', PASSWORD);
    });
    afterEach(() => server?.close());

    describe('the asset page', () => {
      it('shows an https image as a picture with its alt text, no referrer and lazy loading; the AP form is its alternate', async () => {
        await createAsset('sunset', {
          url: 'https://cdn.example/sunset.png',
          alt_text: 'The sun going down',
        });
        const html = await page('/assets/sunset');
        const pictures = tagsNamed(mainOf(html), 'img');
        expect(pictures).to.have.length(1);
        const img = pictures[0]!;
        expect(attribute(img, 'src')).to.equal('https://cdn.example/sunset.png');
        expect(attribute(img, 'alt')).to.equal('The sun going down');
        expect(attribute(img, 'referrerpolicy')).to.equal('no-referrer');
        expect(attribute(img, 'loading')).to.equal('lazy');
        const alternate = tagsNamed(html, 'link').filter((l) => attribute(l, 'rel') === 'alternate');
        expect(alternate).to.have.length(1);
        expect(attribute(alternate[0]!, 'type')).to.equal('application/activity+json');
        expect(attribute(alternate[0]!, 'href')).to.equal(`${server.config.publicUrl}/assets/sunset`);
        expect(html.indexOf('rel="alternate"')).to.be.below(html.indexOf('</head>'));
      });

      it('reads the description, else the name, as the alt text when the asset has none', async () => {
        await createAsset('described', { url: 'https://cdn.example/d.png', description: 'Boats at rest' });
        await createAsset('bare', { url: 'https://cdn.example/b.png' });
        const [described] = tagsNamed(mainOf(await page('/assets/described')), 'img');
        expect(attribute(described!, 'alt')).to.equal('Boats at rest');
        const [bare] = tagsNamed(mainOf(await page('/assets/bare')), 'img');
        expect(attribute(bare!, 'alt')).to.equal('bare');
      });

      it('shows no picture for a plain http URL, for a file that is not an image, or without a URL', async () => {
        await createAsset('plain', { url: 'http://cdn.example/plain.png' });
        await createAsset('film', { url: 'https://cdn.example/film.mp4', media_type: 'video/mp4' });
        await createAsset('nowhere', { url: null });
        for (const name of ['plain', 'film', 'nowhere']) {
          expect(tagsNamed(mainOf(await page(`/assets/${name}`)), 'img'), name).to.deep.equal([]);
        }
      });

      it('keeps a sensitive picture behind a disclosure that works without JavaScript', async () => {
        await createAsset('night', { url: 'https://cdn.example/night.png', sensitive: true });
        const html = mainOf(await page('/assets/night'));
        expect(html).to.match(
          /<details class="sensitive">\s*<summary>[^<]*<\/summary>\s*<img [^>]*src="https:\/\/cdn\.example\/night\.png"/,
        );
        expect(html).to.not.match(/<details[^>]*\sopen/);
      });

      it('links each tag to its page, the tag URL-encoded and its text escaped', async () => {
        await createAsset('tagged', { tags: ['art', SCRIPT, ATTRIBUTE_TAG] });
        const html = mainOf(await page('/assets/tagged'));
        const links = tagsNamed(html, 'a').filter((a) => attribute(a, 'rel') === 'tag');
        expect(links.map((a) => attribute(a, 'href'))).to.deep.equal([
          '/tags/art',
          `/tags/${encodeURIComponent(SCRIPT)}`,
          `/tags/${encodeURIComponent(ATTRIBUTE_TAG)}`.replace(/"/g, '&quot;'),
        ]);
        expectEscaped(html, `#${SCRIPT}`, 'asset page');
        expectEscaped(html, `#${ATTRIBUTE_TAG}`, 'asset page');
      });

      it('shows the alt text with markup as text, in the picture and in the details', async () => {
        const alt = `A picture ${SCRIPT} ${ATTRIBUTE}`;
        await createAsset('hostile-alt', { url: 'https://cdn.example/h.png', alt_text: alt });
        const html = mainOf(await page('/assets/hostile-alt'));
        expectEscaped(html, alt, 'asset page');
        expect(tagsNamed(html, 'img')).to.have.length(1);
        expect(tagsNamed(html, 'script')).to.deep.equal([]);
        // The only img is the picture; its alt attribute holds the text, quotes and brackets escaped.
        expect(tagsNamed(html, 'img')[0]).to.include(`alt="${escapedForms(alt)[0]}"`);
      });
    });

    describe('the user page', () => {
      it('shows avatar and header with their alt text, the display name as the heading, bio paragraphs, fields and pins first', async () => {
        await createAsset('face', { url: 'https://cdn.example/face.png', alt_text: 'My face' });
        await createAsset('banner', { url: 'https://cdn.example/banner.png', alt_text: 'Hills' });
        await createAsset('notes', { media_type: 'text/plain', url: null });
        await patchProfile({
          display_name: 'Alice Example',
          bio: 'Line one\nline two\n\nSecond paragraph',
          avatar: 'face',
          header: 'banner',
          fields: [
            { name: 'Website', value: 'https://alice.example/' },
            { name: 'Medium', value: 'Oil' },
          ],
          pinned: ['notes', 'banner'],
        });
        const html = await page('/users/alice');
        const main = mainOf(html);
        expect(tagsNamed(html, 'h1')).to.have.length(1);
        expect(main).to.match(/<h1>Alice Example<\/h1>/);
        expect(html).to.match(/<title>Alice Example · L2<\/title>/);
        const imgs = tagsNamed(main, 'img');
        const avatar = imgs.find((i) => attribute(i, 'src') === 'https://cdn.example/face.png')!;
        expect(attribute(avatar, 'alt')).to.equal('My face');
        expect(attribute(avatar, 'referrerpolicy')).to.equal('no-referrer');
        const header = imgs.find((i) => attribute(i, 'class') === 'banner')!;
        expect(attribute(header, 'src')).to.equal('https://cdn.example/banner.png');
        expect(attribute(header, 'alt')).to.equal('Hills');
        expect(main).to.include('<p>Line one<br>line two</p>');
        expect(main).to.include('<p>Second paragraph</p>');
        expect(main).to.match(
          /<dt>Website<\/dt>\s*<dd><a href="https:\/\/alice\.example\/" rel="me nofollow noopener">/,
        );
        expect(main).to.match(/<dt>Medium<\/dt>\s*<dd>Oil<\/dd>/);
        // The pins, in their order, before the list of every asset.
        const pins = main.indexOf('id="pinned-heading"');
        expect(pins).to.be.above(0);
        expect(pins).to.be.below(main.indexOf('id="assets-heading"'));
        const pinSection = main.slice(pins, main.indexOf('</section>', pins));
        expect(pinSection.indexOf('/assets/notes')).to.be.below(pinSection.indexOf('/assets/banner'));
        const alternate = tagsNamed(html, 'link').find((l) => attribute(l, 'rel') === 'alternate')!;
        expect(attribute(alternate, 'href')).to.equal(`${server.config.publicUrl}/users/alice`);
        expect(attribute(alternate, 'type')).to.equal('application/activity+json');
      });

      it('shows the username as the heading and no profile parts while the profile is empty', async () => {
        const main = mainOf(await page('/users/alice'));
        expect(main).to.match(/<h1>alice<\/h1>/);
        expect(tagsNamed(main, 'img')).to.deep.equal([]);
        expect(main).to.not.include('class="bio"');
        expect(main).to.not.include('pinned-heading');
      });

      it('shows a bio, fields and a display name holding markup as text; a field value that is no http(s) URL is no link', async () => {
        await patchProfile({
          display_name: `Mallory ${SCRIPT}`,
          bio: `Hello ${SCRIPT}\n${ATTRIBUTE}`,
          fields: [
            { name: `Site ${SCRIPT}`, value: 'javascript:alert(1)' },
            { name: 'Quote', value: `https://evil.example/"onmouseover="alert(1)` },
            { name: 'Plain', value: ATTRIBUTE },
          ],
        });
        const html = await page('/users/alice');
        const main = mainOf(html);
        for (const raw of [`Mallory ${SCRIPT}`, `Hello ${SCRIPT}`, ATTRIBUTE, `Site ${SCRIPT}`]) {
          expectEscaped(main, raw, 'user page');
        }
        expect(tagsNamed(html, 'script')).to.deep.equal([]);
        expect(tagsNamed(main, 'img')).to.deep.equal([]);
        expect(main).to.not.match(/href="javascript:/i);
        expect(main).to.include('<dd>javascript:alert(1)</dd>');
        // A value with a space is no URL: shown as text. One without a space but with a quote stays in its href.
        for (const a of tagsNamed(main, 'a'))
          expect(a, 'no attribute broken out').to.not.match(/\sonmouseover=/i);
        expectEscaped(html, `Mallory ${SCRIPT}`, 'title');
      });

      it("links to the edit page only on the user's own page, for the user signed in", async () => {
        await registerUser(server.url, 'bob', PASSWORD);
        expect(await page('/users/alice')).to.not.include('/users/alice/edit');
        const alice = await signedInBrowser('alice');
        expect((await alice.get('/users/alice')).text).to.include('href="/users/alice/edit"');
        expect((await alice.get('/users/bob')).text).to.not.include('/edit"');
      });
    });

    describe('the profile form', () => {
      it('sends a signed-out browser to log in and back; answers another user 403', async () => {
        const anonymous = await api.get('/users/alice/edit', HTML);
        expect(anonymous.status).to.equal(303);
        expect(anonymous.headers.get('location')).to.equal('/login?next=%2Fusers%2Falice%2Fedit');
        await registerUser(server.url, 'bob', PASSWORD);
        const bob = await signedInBrowser('bob');
        const forbidden = await bob.get('/users/alice/edit');
        expect(forbidden.status).to.equal(403);
        expect(forbidden.text).to.not.include('name="display_name"');
      });

      it('is linked from the Account page and holds every field under its JSON name, the pictures only among the choices', async () => {
        await createAsset('face', { url: 'https://cdn.example/face.png', alt_text: 'My face' });
        await createAsset('scan', { url: 'http://cdn.example/scan.png' });
        await createAsset('notes', { media_type: 'text/plain', url: null });
        const alice = await signedInBrowser('alice');
        expect((await alice.get('/account')).text).to.include('href="/users/alice/edit"');
        const html = expectPage(await alice.get('/users/alice/edit'));
        const form = html.slice(
          html.indexOf('<form class="stacked profile-form"'),
          html.indexOf('</form>', html.indexOf('profile-form')),
        );
        expect(form).to.match(/method="post" action="\/users\/alice"/);
        expect(form).to.match(/<input type="hidden" name="_method" value="PATCH">/);
        expect(form).to.match(/<input type="hidden" name="_csrf" value="[^"]+">/);
        const names = [...form.matchAll(/\sname="([^"]+)"/g)].map((m) => m[1]);
        expect(names).to.deep.equal([
          '_csrf',
          '_method',
          'display_name',
          'bio',
          'avatar',
          'header',
          ...[0, 1, 2, 3].flatMap((i) => [`fields[${i}][name]`, `fields[${i}][value]`]),
          'pinned',
          'indexable',
          'manually_approves_followers',
        ]);
        for (const id of ['avatar', 'header']) {
          const select = form.slice(
            form.indexOf(`<select id="${id}"`),
            form.indexOf('</select>', form.indexOf(`<select id="${id}"`)),
          );
          const options = [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
          expect(options, id).to.deep.equal(['', 'face']);
        }
        // Every visible control has its label.
        for (const id of [...form.matchAll(/<(?:input|textarea|select) id="([^"]+)"/g)].map((m) => m[1])) {
          expect(form, `a label for ${id}`).to.include(`<label for="${id}">`);
        }
        expect(form).to.include('maxlength="100"');
        expect(form).to.include('maxlength="2000"');
        expect(form).to.include('maxlength="500"');
      });

      it('saves from a form post and answers 303 to the user page; the JSON user has every field', async () => {
        await createAsset('face', { url: 'https://cdn.example/face.png' });
        await createAsset('notes', { media_type: 'text/plain', url: null });
        const alice = await signedInBrowser('alice', '/users/alice/edit');
        const saved = await alice.submit('/users/alice', {
          _method: 'PATCH',
          display_name: 'Alice',
          bio: 'Hi',
          avatar: 'face',
          header: '',
          'fields[0][name]': 'Website',
          'fields[0][value]': 'https://alice.example/',
          'fields[1][name]': '',
          'fields[1][value]': '',
          pinned: 'notes, face',
          indexable: 'true',
        });
        expect(saved.status, saved.text).to.equal(303);
        expect(saved.headers.get('location')).to.equal('/users/alice');
        expect((await api.get('/users/alice', JSON_ACCEPT)).json).to.deep.include({
          display_name: 'Alice',
          bio: 'Hi',
          avatar: 'face',
          header: null,
          fields: [{ name: 'Website', value: 'https://alice.example/' }],
          pinned: ['notes', 'face'],
          indexable: true,
        });
        // The checkbox unticked sends nothing: the form means "not indexable".
        await alice.get('/users/alice/edit');
        const again = await alice.submit('/users/alice', { _method: 'PATCH', display_name: 'Alice' });
        expect(again.status, again.text).to.equal(303);
        expect((await api.get('/users/alice', JSON_ACCEPT)).json.indexable).to.equal(false);
      });

      it('re-renders a refused form with the reason in role="alert" and every value kept, escaped', async () => {
        await createAsset('face', { url: 'https://cdn.example/face.png' });
        const alice = await signedInBrowser('alice', '/users/alice/edit');
        const typed = {
          _method: 'PATCH',
          display_name: `Mallory ${SCRIPT}`,
          bio: `Bio ${ATTRIBUTE}`,
          avatar: 'face',
          header: '',
          'fields[0][name]': `Name ${SCRIPT}`,
          'fields[0][value]': ATTRIBUTE,
          pinned: `face, not-mine-${'x'.repeat(3)}`,
          indexable: 'true',
        };
        const refused = await alice.submit('/users/alice', typed);
        const html = expectPage(refused, 400);
        expect(html).to.match(/<p role="alert">[^<]*pinned[^<]*<\/p>/);
        expect(tagsNamed(html, 'h1')).to.have.length(1);
        const main = mainOf(html);
        expectEscaped(main, `Mallory ${SCRIPT}`, 'display name kept');
        expect(main).to.match(
          /<textarea id="bio"[^>]*>Bio &quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;<\/textarea>/,
        );
        expectEscaped(main, `Name ${SCRIPT}`, 'field name kept');
        expect(main).to.match(/<option value="face" selected>/);
        expect(main).to.include('value="face, not-mine-xxx"');
        expect(main).to.match(/<input id="indexable"[^>]*checked>/);
        expect(tagsNamed(html, 'script')).to.deep.equal([]);
        // Nothing was saved.
        expect((await api.get('/users/alice', JSON_ACCEPT)).json.display_name).to.equal(null);
      });

      it('refuses a display name of 101 characters with the form shown again', async () => {
        const alice = await signedInBrowser('alice', '/users/alice/edit');
        const long = 'A'.repeat(101);
        const html = expectPage(
          await alice.submit('/users/alice', { _method: 'PATCH', display_name: long }),
          400,
        );
        expect(html).to.match(/<p role="alert">[^<]*100 characters[^<]*<\/p>/);
        expect(html).to.include(`value="${long}"`);
      });
    });

    describe('the tag page', () => {
      it('lists the live assets with the tag in any case, each linked; an unused tag is an empty page, not 404', async () => {
        await createAsset('one', { tags: ['Art'] });
        await createAsset('two', { tags: ['art', 'sky'] });
        await createAsset('three', { tags: ['sky'] });
        await createAsset('gone', { tags: ['art'] });
        expect((await api.send('DELETE', '/assets/gone', undefined, { token })).status).to.equal(200);
        const html = await page('/tags/ART');
        expect(html).to.match(/<h1>#ART<\/h1>/);
        const main = mainOf(html);
        expect(main).to.include('href="/assets/one"').and.include('href="/assets/two"');
        expect(main).to.not.include('href="/assets/three"').and.not.include('href="/assets/gone"');
        const empty = mainOf(await page('/tags/nobody'));
        expect(empty).to.include('Nobody uses this tag yet.');
        expect(tagsNamed(empty, 'table')).to.deep.equal([]);
      });

      it('shows a tag holding markup as text', async () => {
        await createAsset('hostile', { tags: [SCRIPT, ATTRIBUTE_TAG] });
        for (const tag of [SCRIPT, ATTRIBUTE_TAG]) {
          const html = await page(`/tags/${encodeURIComponent(tag)}`);
          expectEscaped(html, `#${tag}`, `tag page of ${tag}`);
          expect(tagsNamed(html, 'script')).to.deep.equal([]);
          expect(mainOf(html)).to.include('href="/assets/hostile"');
        }
      });
    });

    describe('the asset forms', () => {
      it('carry alt_text (at most 1500 characters) and a sensitive checkbox, filled from the asset when editing', async () => {
        await createAsset('sunset', {
          url: 'https://cdn.example/s.png',
          alt_text: `Sun ${SCRIPT}`,
          sensitive: true,
        });
        const alice = await signedInBrowser('alice', '/assets/new');
        const fresh = expectPage(await alice.get('/assets/new'));
        expect(fresh).to.match(
          /<textarea id="alt_text" name="alt_text"[^>]*maxlength="1500"[^>]*><\/textarea>/,
        );
        expect(fresh).to.match(/<input id="sensitive" name="sensitive" type="checkbox" value="true"[^>]*>/);
        expect(fresh).to.not.match(/<input id="sensitive"[^>]*checked/);
        expect(fresh).to.include('<label for="alt_text">').and.include('<label for="sensitive">');
        const editing = mainOf(expectPage(await alice.get('/assets/sunset/edit')));
        expect(editing).to.include('&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
        expect(editing).to.match(/<input id="sensitive"[^>]*checked>/);
      });

      it('keep the sensitive box as it was sent when an edit is refused: unticked stays unticked', async () => {
        await createAsset('sunset', { url: 'https://cdn.example/s.png', sensitive: true });
        const alice = await signedInBrowser('alice', '/assets/sunset/edit');
        const refused = await alice.submit('/assets/sunset', {
          _method: 'PATCH',
          media_type: 'not a media type',
          url: 'https://cdn.example/s.png',
          alt_text: 'Kept',
        });
        const html = expectPage(refused, 400);
        expect(html).to.include('role="alert"');
        expect(html).to.match(/<input id="sensitive"[^>]*>/);
        expect(html).to.not.match(/<input id="sensitive"[^>]*checked/);
        expect(html).to.include('>Kept</textarea>');
      });

      it('register an asset with its alt text and the box ticked', async () => {
        const alice = await signedInBrowser('alice', '/assets/new');
        const created = await alice.submit('/assets', {
          name: 'night',
          content_hash: contentHash('night'),
          media_type: 'image/png',
          url: 'https://cdn.example/night.png',
          alt_text: 'Stars over water',
          sensitive: 'true',
        });
        expect(created.status, created.text).to.equal(303);
        expect((await api.get('/assets/night', JSON_ACCEPT)).json).to.include({
          alt_text: 'Stars over water',
          sensitive: true,
        });
      });
    });
  });
}
