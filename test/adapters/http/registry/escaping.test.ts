import { expect } from 'chai';
import { client, registerUser } from '../../../support/http.js';
import { verifyLdSignature } from '../../../support/independent-ld-verifier.js';
import type { TestServer } from '../../../support/test-server.js';
import {
  AP_ACCEPT,
  BROWSER_ACCEPT,
  createAsset,
  expectAp,
  expectHtml,
  getAs,
  startServer,
  STORES,
  type Api,
} from './support.js';

const SCRIPT = '<script>alert(1)</script>';
const ATTRIBUTE = '"><img src=x onerror=alert(1)>';
/** Tags are single words: the attribute-breaking payload without its spaces. */
const ATTRIBUTE_TAG = '"><img/src=x/onerror=alert(1)>';

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

for (const store of STORES) {
  describe(`escaping user-supplied text (${store})`, () => {
    let server: TestServer;
    let api: Api;
    let alice: string;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    let created: any;

    before(async () => {
      server = await startServer(store);
      api = client(server.url);
      alice = await registerUser(server.url, 'alice');
      created = await createAsset(api, alice, 'hostile', {
        description: `Look: ${SCRIPT} and ${ATTRIBUTE} & more`,
        tags: [SCRIPT, ATTRIBUTE_TAG],
      });
    });
    after(() => server?.close());

    it('stores and returns the text exactly as given in the JSON form', async () => {
      expect(created.description).to.equal(`Look: ${SCRIPT} and ${ATTRIBUTE} & more`);
      expect(created.tags).to.deep.equal([SCRIPT, ATTRIBUTE_TAG]);
    });

    it('the asset page shows the description and tags escaped', async () => {
      const html = expectHtml(await getAs(api, '/assets/hostile', BROWSER_ACCEPT));
      expectEscaped(html, SCRIPT, 'asset page');
      expectEscaped(html, ATTRIBUTE, 'asset page');
      expectEscaped(html, ATTRIBUTE_TAG, 'asset page');
      expect(html).to.not.match(/<img[^>]*onerror/i);
    });

    it('the registry page shows the tags escaped', async () => {
      const html = expectHtml(await getAs(api, '/registry', BROWSER_ACCEPT));
      expect(html).to.include('hostile');
      expectEscaped(html, SCRIPT, 'registry page');
      expectEscaped(html, ATTRIBUTE_TAG, 'registry page');
      expect(html).to.not.include(ATTRIBUTE);
      expect(html).to.not.match(/<img[^>]*onerror/i);
    });

    it("the owner's profile page shows the tags escaped", async () => {
      const html = expectHtml(await getAs(api, '/users/alice', BROWSER_ACCEPT));
      expect(html).to.include('hostile');
      expectEscaped(html, SCRIPT, 'user page');
      expectEscaped(html, ATTRIBUTE_TAG, 'user page');
      expect(html).to.not.include(ATTRIBUTE);
      expect(html).to.not.match(/<img[^>]*onerror/i);
    });

    it('the activity page shows the signed document escaped', async () => {
      const html = expectHtml(await getAs(api, `/activities/${created.activity.idx}`, BROWSER_ACCEPT));
      expect(html).to.not.include(SCRIPT);
      expect(html).to.not.include(ATTRIBUTE_TAG);
      expect(html).to.not.match(/<img[^>]*onerror/i);
    });

    it('a search for the hostile text is echoed escaped on the registry page', async () => {
      const html = expectHtml(
        await getAs(api, `/registry?q=${encodeURIComponent(ATTRIBUTE)}`, BROWSER_ACCEPT),
      );
      expectEscaped(html, ATTRIBUTE, 'registry search box');
    });

    it('object.content of the activity and of the AP asset is the HTML-escaped description', async () => {
      const expected = `<p>Look: &lt;script&gt;alert(1)&lt;/script&gt; and &quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; more</p>`;
      const activity = expectAp(await getAs(api, `/activities/${created.activity.idx}`, AP_ACCEPT));
      const object = expectAp(await getAs(api, '/assets/hostile', AP_ACCEPT));
      for (const content of [activity.object.content, object.content]) {
        expect(content).to.include(expected);
        expect(content).to.not.include(SCRIPT);
        expect(content).to.not.match(/<img/i);
        // The only markup is the service's own: paragraphs, the name, and the hashtag links.
        const tags = [...content.matchAll(/<\/?([a-z]+)/g)].map((m: RegExpMatchArray) => m[1]);
        expect([...new Set(tags)].sort()).to.deep.equal(['a', 'p', 'span', 'strong']);
      }
      for (const tag of object.tag) expect(tag.href).to.match(/^http:\/\/l2\.test\/tags\/[^<>"]+$/);
      const actor = expectAp(await getAs(api, '/users/alice', AP_ACCEPT));
      expect(await verifyLdSignature(activity, actor.publicKey.publicKeyPem)).to.equal(true);
    });
  });
}
