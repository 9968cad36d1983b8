import { expect } from 'chai';
import {
  actorDocument,
  featuredCollection,
  profileUpdateDocument,
} from '../../../src/domain/actor-document.js';
import { ACTOR_CONTEXT, Urls } from '../../../src/domain/activity-streams.js';
import { NO_MOVE } from '../../../src/domain/account-move.js';
import type { Asset, AssetName } from '../../../src/domain/asset.js';
import {
  applyProfileChanges,
  checkProfileAssets,
  EMPTY_PROFILE,
  profileAfterAssetChange,
  profileTouchedBy,
  sameProfile,
  type Profile,
} from '../../../src/domain/profile.js';
import type { UserProfile, Username } from '../../../src/domain/user.js';

const urls = Urls.of('https://l2.example');
const T = new Date('2026-11-22T10:00:00.000Z');
const alice = 'alice' as Username;
const asset = (name: string, overrides: Partial<Asset> = {}): Asset =>
  ({
    name: name as AssetName,
    owner: alice,
    contentHash: `sha256:${'a'.repeat(64)}`,
    mediaType: 'image/png',
    url: `https://cdn.example/${name}.png`,
    description: '',
    altText: `${name} alt`,
    sensitive: false,
    tags: [],
    createdAt: T,
    updatedAt: T,
    deletedAt: null,
    ...overrides,
  }) as Asset;
const user = (profile: Profile, version = 3): UserProfile => ({
  username: alice,
  publicKeyPem: 'PEM',
  createdAt: T,
  deletedAt: null,
  disabledAt: null,
  profile,
  profileVersion: version,
  move: NO_MOVE,
});
const changed = (changes: Parameters<typeof applyProfileChanges>[1], from: Profile = EMPTY_PROFILE) => {
  const result = applyProfileChanges(from, changes);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value;
};

describe('profile rules (API.md §4.2)', () => {
  it('sets the fields given, clears those given as null, and keeps the others', () => {
    const first = changed({ displayName: ' Alice ', bio: 'Painter.', indexable: true });
    expect(first).to.deep.include({ displayName: 'Alice', bio: 'Painter.', indexable: true });
    const second = changed({ displayName: null }, first);
    expect(second).to.deep.include({ displayName: null, bio: 'Painter.', indexable: true });
  });

  it('refuses over-long texts by field, and drops control characters (a bio keeps its line breaks)', () => {
    const refused = (changes: Parameters<typeof applyProfileChanges>[1]) => {
      const result = applyProfileChanges(EMPTY_PROFILE, changes);
      return result.ok ? null : result.error.path;
    };
    expect(refused({ displayName: 'x'.repeat(101) })).to.equal('display_name');
    expect(refused({ displayName: 'x'.repeat(100) })).to.equal(null);
    expect(refused({ bio: 'x'.repeat(2001) })).to.equal('bio');
    expect(refused({ fields: [{ name: 'x'.repeat(101), value: '' }] })).to.equal('fields.0.name');
    expect(refused({ fields: [{ name: 'a', value: 'x'.repeat(501) }] })).to.equal('fields.0.value');
    expect(refused({ fields: Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, value: '' })) })).to.equal(
      'fields',
    );
    expect(refused({ pinned: ['a', 'b', 'c', 'd', 'e', 'f'] })).to.equal('pinned');
    expect(refused({ avatar: 'not a name' })).to.equal('avatar');
    expect(changed({ displayName: 'A\u0007l\ni', bio: 'one\ntwo\u0000' })).to.deep.include({
      displayName: 'Ali',
      bio: 'one\ntwo',
    });
  });

  it('drops bidi overrides and zero-width characters from the name and the fields, keeping the joiners', () => {
    const profile = changed({
      displayName: '\u202Eecila\u202C Ali\u200Bce 👩\u200D💻',
      fields: [{ name: 'Web\u2066site\u2069', value: 'https://example.com/\u200F\u061C' }],
    });
    expect(profile.displayName).to.equal('ecila Alice 👩\u200D💻');
    expect(profile.fields).to.deep.equal([{ name: 'Website', value: 'https://example.com/' }]);
  });

  it("stores a browser's CRLF line breaks as one newline each, so a bio at the limit in a textarea fits", () => {
    const typed = Array.from({ length: 1000 }, () => 'x').join('\r\n'); // 1,999 characters in the textarea
    const result = applyProfileChanges(EMPTY_PROFILE, { bio: typed });
    expect(result.ok && result.value.bio).to.equal(typed.replace(/\r\n/g, '\n'));
    expect(changed({ bio: 'old mac\rline' }).bio).to.equal('old mac\nline');
  });

  it('drops blank field rows, needs a name for a field, and keeps pins once each, in order', () => {
    expect(
      changed({
        fields: [
          { name: 'Site', value: 'https://alice.example' },
          { name: '', value: '' },
        ],
        pinned: [' b ', 'a', 'b', ''],
      }),
    ).to.deep.include({ fields: [{ name: 'Site', value: 'https://alice.example' }], pinned: ['b', 'a'] });
    expect(applyProfileChanges(EMPTY_PROFILE, { fields: [{ name: '', value: 'x' }] }).ok).to.equal(false);
  });

  it('accepts as avatar and header only the user’s own live https pictures, and as pins their live assets', () => {
    const profile = changed({ avatar: 'face', header: 'banner', pinned: ['face', 'notes'] });
    const found = new Map<string, Asset>([
      ['face', asset('face')],
      ['banner', asset('banner')],
      ['notes', asset('notes', { mediaType: 'text/plain', url: null })],
    ]);
    expect(checkProfileAssets(profile, alice, found).ok).to.equal(true);
    for (const [why, replaced, path] of [
      ['http', asset('face', { url: 'http://cdn.example/face.png' }), 'avatar'],
      ['not a picture', asset('face', { mediaType: 'video/mp4' }), 'avatar'],
      ['another owner', asset('face', { owner: 'bob' as Username }), 'avatar'],
      ['deleted', asset('face', { deletedAt: T }), 'avatar'],
    ] as const) {
      const result = checkProfileAssets(profile, alice, new Map([...found, ['face', replaced]]));
      expect(result.ok ? null : result.error.path, why).to.equal(path);
    }
    const withoutNotes = new Map([...found].filter(([name]) => name !== 'notes'));
    const missing = checkProfileAssets(profile, alice, withoutNotes);
    expect(missing.ok ? null : missing.error.path).to.equal('pinned');
  });

  it('takes a deleted pin or a picture that is no longer one out of the profile; touches it when a picture changes', () => {
    const profile = changed({ avatar: 'face', header: 'banner', pinned: ['face', 'notes'] });
    expect(profileAfterAssetChange(profile, asset('face', { deletedAt: T }))).to.deep.include({
      avatar: null,
      header: 'banner',
      pinned: ['notes'],
    });
    expect(
      profileAfterAssetChange(profile, asset('banner', { url: 'http://x.example/b.png' })),
    ).to.deep.include({
      header: null,
    });
    expect(profileAfterAssetChange(profile, asset('notes', { description: 'new' }))).to.equal(null);
    expect(profileTouchedBy(profile, asset('face', { altText: 'new alt' }))).to.equal(profile);
    expect(profileTouchedBy(profile, asset('notes', { description: 'new' }))).to.equal(null);
    expect(profileTouchedBy(profile, asset('elsewhere'))).to.equal(null);
    expect(sameProfile(profile, changed({}, profile))).to.equal(true);
    expect(sameProfile(profile, changed({ pinned: ['notes', 'face'] }, profile))).to.equal(false);
    const aliased = changed({ alsoKnownAs: ['https://old.example/users/alice'] }, profile);
    expect(aliased.alsoKnownAs).to.deep.equal(['https://old.example/users/alice']);
    expect(sameProfile(profile, aliased)).to.equal(false);
  });
});

describe('the actor document with a profile', () => {
  const profile = changed({
    displayName: 'Alice <3',
    bio: 'Painter at https://alice.example.\n\nSecond <b>paragraph</b>',
    avatar: 'face',
    header: 'banner',
    fields: [
      { name: 'Site', value: 'https://alice.example' },
      { name: 'Pronouns', value: 'she/<her>' },
    ],
    pinned: ['face'],
    indexable: true,
  });
  const view = { user: user(profile), avatar: asset('face'), header: asset('banner') };

  it('shows the name, the bio as escaped HTML with links, the pictures with alt text, the fields and the pins', () => {
    const actor = actorDocument(view, urls);
    expect(actor['@context']).to.deep.equal(ACTOR_CONTEXT);
    expect(actor).to.deep.include({
      name: 'Alice <3',
      summary:
        '<p>Painter at <a href="https://alice.example" rel="nofollow noopener">https://alice.example</a>.</p>' +
        '<p>Second &lt;b&gt;paragraph&lt;/b&gt;</p>',
      icon: { type: 'Image', mediaType: 'image/png', url: 'https://cdn.example/face.png', name: 'face alt' },
      image: {
        type: 'Image',
        mediaType: 'image/png',
        url: 'https://cdn.example/banner.png',
        name: 'banner alt',
      },
      featured: 'https://l2.example/users/alice/featured',
      indexable: true,
      discoverable: true,
      attachment: [
        {
          type: 'PropertyValue',
          name: 'Site',
          value: '<a href="https://alice.example" rel="me nofollow noopener">https://alice.example</a>',
        },
        { type: 'PropertyValue', name: 'Pronouns', value: 'she/&lt;her&gt;' },
      ],
    });
  });

  it('shows the username, no bio, no pictures and no fields for an empty profile', () => {
    const actor = actorDocument({ user: user(EMPTY_PROFILE), avatar: null, header: null }, urls);
    expect(actor.name).to.equal('alice');
    for (const absent of ['summary', 'icon', 'image', 'attachment', 'alsoKnownAs', 'movedTo'])
      expect(actor).not.to.have.property(absent);
    expect(actor.indexable).to.equal(false);
  });

  it('shows the aliases as alsoKnownAs and, once moved, the target as movedTo (API.md §4.3)', () => {
    const aliases = ['https://old.example/users/alice', 'https://other.example/users/al'];
    const moved = {
      ...user({ ...EMPTY_PROFILE, alsoKnownAs: aliases }),
      move: { movedTo: 'https://new.example/users/alice', movedAt: T, lastMovedAt: T, moves: 1 },
    };
    const actor = actorDocument({ user: moved, avatar: null, header: null }, urls);
    expect(actor).to.deep.include({ alsoKnownAs: aliases, movedTo: 'https://new.example/users/alice' });
    expect(profileUpdateDocument({ user: moved, avatar: null, header: null }, urls).object).to.deep.include({
      alsoKnownAs: aliases,
      movedTo: 'https://new.example/users/alice',
    });
  });

  it('names each Update of the profile after the change, with the whole actor as its object', () => {
    const update = profileUpdateDocument(view, urls);
    expect(update).to.deep.include({
      id: 'https://l2.example/users/alice#updates/3',
      type: 'Update',
      actor: 'https://l2.example/users/alice',
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      cc: ['https://l2.example/users/alice/followers'],
    });
    const { '@context': _context, ...object } = actorDocument(view, urls);
    expect(update.object).to.deep.equal(object);
  });

  it('lists the pinned assets as Notes in the featured collection, in order', () => {
    const featured = featuredCollection('alice', [asset('b'), asset('a')], urls);
    expect(featured).to.deep.include({ type: 'OrderedCollection', totalItems: 2 });
    expect(
      (featured.orderedItems as { id: string; type: string }[]).map((n) => [n.type, n.id]),
    ).to.deep.equal([
      ['Note', 'https://l2.example/assets/b'],
      ['Note', 'https://l2.example/assets/a'],
    ]);
  });
});
