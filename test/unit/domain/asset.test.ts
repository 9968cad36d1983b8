import { expect } from 'chai';
import { activityDocument } from '../../../src/domain/activity-document.js';
import { escapeHtml, Urls } from '../../../src/domain/activity-streams.js';
import {
  normaliseAssetUrl,
  normaliseDescription,
  normaliseTags,
  objectTypeFor,
  parseAssetName,
  type Asset,
} from '../../../src/domain/asset.js';

const urls = new Urls('https://l2.example');
const T = new Date('2026-11-22T10:00:00.000Z');
const asset = (overrides: Partial<Asset> = {}): Asset =>
  ({
    name: 'sunset',
    owner: 'alice',
    contentHash: `sha256:${'a'.repeat(64)}`,
    mediaType: 'image/png',
    url: 'https://cdn.example/sunset.png',
    description: 'A <b>red</b> sky',
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

  it('keeps line breaks in a description but turns tabs into spaces and drops other control characters', () => {
    expect(normaliseDescription('a\tb\nc\r\nd\u0000e\u001bf')).to.equal('a b\nc\r\nde' + 'f');
  });

  it('stores URLs in their escaped serialisation and refuses non-http ones', () => {
    expect(normaliseAssetUrl('https://cdn.example/a b.png')).to.equal('https://cdn.example/a%20b.png');
    expect(normaliseAssetUrl('javascript:alert(1)')).to.equal(null);
    expect(normaliseAssetUrl('ftp://x.example/a')).to.equal(null);
    expect(normaliseAssetUrl('/relative')).to.equal(null);
  });

  it('maps media types to ActivityStreams object types', () => {
    expect(
      ['image/png', 'video/mp4', 'audio/ogg', 'model/gltf+json', 'application/pdf'].map(objectTypeFor),
    ).to.deep.equal(['Image', 'Video', 'Audio', 'Document', 'Document']);
  });
});

describe('activity documents', () => {
  it('builds the Create of API.md §4 with escaped content and hashtags', () => {
    const doc = activityDocument({ idx: 7, type: 'Create', asset: asset(), published: T, urls });
    expect(doc).to.deep.equal({
      '@context': [
        'https://www.w3.org/ns/activitystreams',
        'https://w3id.org/security/v1',
        { Hashtag: 'as:Hashtag' },
      ],
      id: 'https://l2.example/activities/7',
      type: 'Create',
      actor: 'https://l2.example/users/alice',
      published: T.toISOString(),
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      cc: ['https://l2.example/users/alice/followers'],
      object: {
        id: 'https://l2.example/assets/sunset',
        type: 'Image',
        name: 'sunset',
        attributedTo: 'https://l2.example/users/alice',
        mediaType: 'image/png',
        url: 'https://cdn.example/sunset.png',
        content: 'A &lt;b&gt;red&lt;/b&gt; sky',
        published: T.toISOString(),
        tag: [
          { type: 'Hashtag', name: '#art' },
          { type: 'Hashtag', name: '#sky' },
        ],
      },
    });
  });

  it('marks an updated object with its update time and omits a missing url', () => {
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
    expect(object).not.to.have.property('url');
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
