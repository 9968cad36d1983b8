import { expect } from 'chai';
import { activityDocument } from '../../../src/domain/activity-document.js';
import { ACTIVITY_CONTEXT, escapeHtml, Urls } from '../../../src/domain/activity-streams.js';
import { altTextOf, assetNote } from '../../../src/domain/asset-note.js';
import { base58btc, sha256DigestMultibase } from '../../../src/domain/multibase.js';
import {
  normaliseAssetUrl,
  normaliseDescription,
  checkAssetFields,
  normaliseTags,
  parseAssetName,
  type Asset,
} from '../../../src/domain/asset.js';

const urls = Urls.of('https://l2.example');
const T = new Date('2026-11-22T10:00:00.000Z');
const asset = (overrides: Partial<Asset> = {}): Asset =>
  ({
    name: 'sunset',
    owner: 'alice',
    contentHash: `sha256:${'a'.repeat(64)}`,
    mediaType: 'image/png',
    url: 'https://cdn.example/sunset.png',
    description: 'A <b>red</b> sky',
    altText: null,
    sensitive: false,
    tags: ['art', 'sky'],
    createdAt: T,
    updatedAt: T,
    deletedAt: null,
    ...overrides,
  }) as Asset;

describe('asset rules', () => {
  for (const good of ['a', 'Sunset-01.png', 'x_y', `a${'b'.repeat(127)}`]) {
    it(`accepts the name ${good.slice(0, 20)}`, () => expect(parseAssetName(good).ok).to.equal(true));
  }
  for (const bad of ['', '-lead', '.hidden', 'has space', 'slash/name', `a${'b'.repeat(128)}`, 'ünïcode']) {
    it(`refuses the name ${JSON.stringify(bad.slice(0, 20))}`, () =>
      expect(parseAssetName(bad).ok).to.equal(false));
  }

  it('cleans tags: trims, drops a leading #, removes duplicates and empties', () => {
    expect(normaliseTags([' art ', '#art', 'sky', '', 'Sky'])).to.deep.equal({
      ok: true,
      value: ['art', 'sky', 'Sky'],
    });
  });

  it('refuses more than 20 tags, long tags and tags with spaces, commas or control characters', () => {
    expect(normaliseTags(Array.from({ length: 21 }, (_, i) => `t${i}`)).ok).to.equal(false);
    expect(normaliseTags(['x'.repeat(51)]).ok).to.equal(false);
    expect(normaliseTags(['x'.repeat(50)]).ok).to.equal(true);
    for (const bad of ['two words', 'a,b', 'bell\u0007'])
      expect(normaliseTags([bad]).ok, bad).to.equal(false);
  });

  it('drops bidi overrides and zero-width characters from alt text and tags, keeping the joiners emoji need', () => {
    const fields = checkAssetFields({
      contentHash: `sha256:${'a'.repeat(64)}`,
      mediaType: 'image/png',
      url: null,
      description: 'kept\u202Eas written',
      altText: 'A\u202Egnp.exe red\u200B sky\uFEFF \u{E0041}over 👩\u200D👩\u200D👧, می\u200Cخواهم',
      sensitive: false,
      tags: ['sky\u200B', '\u2066art\u2069'],
    });
    expect(fields.ok).to.equal(true);
    if (!fields.ok) return;
    expect(fields.value.altText).to.equal('Agnp.exe red sky over 👩\u200D👩\u200D👧, می\u200Cخواهم');
    expect(fields.value.tags).to.deep.equal(['sky', 'art']);
    expect(fields.value.description, 'prose in right-to-left scripts needs its marks').to.equal(
      'kept\u202Eas written',
    );
  });

  it('keeps line breaks in a description but turns tabs into spaces and drops other control characters', () => {
    expect(normaliseDescription('a\tb\nc\r\nd\u0000e\u001bf')).to.equal('a b\nc\r\nde' + 'f');
  });

  it('stores URLs in their escaped serialisation and refuses non-http ones', () => {
    expect(normaliseAssetUrl('https://cdn.example/a b.png')).to.equal('https://cdn.example/a%20b.png');
    expect(normaliseAssetUrl('javascript:alert(1)')).to.equal(null);
    expect(normaliseAssetUrl('ftp://x.example/a')).to.equal(null);
    expect(normaliseAssetUrl('/relative')).to.equal(null);
  });

  it('refuses a URL longer than 2,048 characters once serialised', () => {
    const base = 'https://cdn.example/';
    expect(normaliseAssetUrl(base + 'a'.repeat(2048 - base.length))).to.have.length(2048);
    expect(normaliseAssetUrl(base + 'a'.repeat(2049 - base.length))).to.equal(null);
  });
});

describe('activity documents', () => {
  it('builds the Create of API.md §4.1: a Note with an HTML caption, the picture attached, the audience on the object', () => {
    const doc = activityDocument({ idx: 7, type: 'Create', asset: asset(), published: T, urls });
    expect(doc['@context']).to.deep.equal(ACTIVITY_CONTEXT);
    expect(doc).to.deep.include({
      id: 'https://l2.example/activities/7',
      type: 'Create',
      actor: 'https://l2.example/users/alice',
      published: T.toISOString(),
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      cc: ['https://l2.example/users/alice/followers'],
    });
    expect(doc.object).to.deep.equal({
      id: 'https://l2.example/assets/sunset',
      type: 'Note',
      attributedTo: 'https://l2.example/users/alice',
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      cc: ['https://l2.example/users/alice/followers'],
      url: 'https://l2.example/assets/sunset',
      content:
        '<p><strong>sunset</strong></p><p>A &lt;b&gt;red&lt;/b&gt; sky</p>' +
        '<p><a href="https://l2.example/tags/art" class="mention hashtag" rel="tag">#<span>art</span></a> ' +
        '<a href="https://l2.example/tags/sky" class="mention hashtag" rel="tag">#<span>sky</span></a></p>',
      sensitive: false,
      attachment: [
        {
          type: 'Document',
          mediaType: 'image/png',
          url: 'https://cdn.example/sunset.png',
          // No alt text given: the description stands in for it.
          name: 'A <b>red</b> sky',
          digestMultibase: sha256DigestMultibase(`sha256:${'a'.repeat(64)}`),
        },
      ],
      tag: [
        { type: 'Hashtag', href: 'https://l2.example/tags/art', name: '#art' },
        { type: 'Hashtag', href: 'https://l2.example/tags/sky', name: '#sky' },
      ],
      published: T.toISOString(),
    });
  });

  it('attaches only an https picture, film or sound; links any other file from the caption', () => {
    const note = (overrides: Partial<Asset>) => assetNote(asset(overrides), urls);
    for (const mediaType of ['image/png', 'video/mp4', 'audio/ogg'])
      expect(note({ mediaType }).attachment, mediaType).to.have.length(1);
    for (const [what, overrides] of [
      ['a model', { mediaType: 'model/gltf+json', url: 'https://cdn.example/m.glb' }],
      ['an http picture', { url: 'http://cdn.example/sunset.png' }],
    ] as const) {
      const shown = note(overrides);
      expect(shown, what).not.to.have.property('attachment');
      expect(shown.content, what).to.contain(
        `<p><a href="${overrides.url}" rel="nofollow noopener noreferrer">`,
      );
    }
    const none = note({ url: null });
    expect(none).not.to.have.property('attachment');
    expect(none.content).not.to.contain('cdn.example');
  });

  it('takes the alt text from alt_text, else the description cut to 1,500 characters, else the name', () => {
    expect(altTextOf(asset({ altText: 'A red sky over the sea' }))).to.equal('A red sky over the sea');
    expect(altTextOf(asset({ description: 'x'.repeat(2000) }))).to.have.length(1500);
    expect(altTextOf(asset({ description: '  ' }))).to.equal('sunset');
  });

  it('keeps paragraphs and line breaks of a description, escaped, and marks a sensitive asset', () => {
    const shown = assetNote(
      asset({ description: 'one <i>\ntwo\n\n  three', tags: [], sensitive: true }),
      urls,
    );
    expect(shown.content).to.equal('<p><strong>sunset</strong></p><p>one &lt;i&gt;<br>two</p><p>three</p>');
    expect(shown.sensitive).to.equal(true);
  });

  it('writes a content hash as a multibase multihash (base58btc of 0x12 0x20 and the digest)', () => {
    // sha2-256 of "hello", whose multihash is the well-known QmRN6wdp1S2A5EtjW9A3M1vKSBuQQGcgvuhoMUoEz4iiT5.
    const hello = 'sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';
    expect(sha256DigestMultibase(hello)).to.equal('zQmRN6wdp1S2A5EtjW9A3M1vKSBuQQGcgvuhoMUoEz4iiT5');
    expect(base58btc(Uint8Array.from([0, 0, 1]))).to.equal('112');
  });

  it('marks an updated object with its update time; without a file it has no attachment, and its url is its page', () => {
    const later = new Date(T.getTime() + 60_000);
    const doc = activityDocument({
      idx: 8,
      type: 'Update',
      asset: asset({ updatedAt: later, url: null }),
      published: later,
      urls,
    });
    const object = doc.object as Record<string, unknown>;
    expect(object.updated).to.equal(later.toISOString());
    expect(object).not.to.have.property('attachment');
    expect(object.url).to.equal('https://l2.example/assets/sunset');
  });

  it('carries a Tombstone in a Delete', () => {
    const doc = activityDocument({ idx: 9, type: 'Delete', asset: asset(), published: T, urls });
    expect(doc.object).to.deep.equal({
      id: 'https://l2.example/assets/sunset',
      type: 'Tombstone',
      deleted: T.toISOString(),
    });
  });

  it('escapes every HTML-significant character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).to.equal(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});
