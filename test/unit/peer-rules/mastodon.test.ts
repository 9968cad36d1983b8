import { expect } from 'chai';
import { isPicturePost, mastodon, type Json } from '../../support/peer-rules/index.js';
import {
  ALICE,
  FILE,
  FOLLOWERS,
  PAGE,
  PUBLIC,
  apiActor,
  apiNote,
  apiNoteCreate,
  createOf,
  todaysImageCreate,
  withAttachment,
  withObject,
} from './fixtures.js';

const shows = (create: Json, options?: mastodon.MastodonOptions) => mastodon.showsPost(create, options);

describe('peer rules: Mastodon', () => {
  describe('a Create', () => {
    it('needs the ActivityStreams context URL in @context', () => {
      expect(shows(apiNoteCreate()).shown).to.equal(true);
      const create = { ...apiNoteCreate(), '@context': ['https://w3id.org/security/v1'] };
      expect(shows(create).shown).to.equal(false);
      expect(shows(create).reasons.join()).to.match(/@context/);
    });

    it('shows a Note, converts an Image/Article/Page/Event, and drops a Document', () => {
      expect(shows(withObject({ type: 'Note' })).shown).to.equal(true);
      for (const type of ['Image', 'Video', 'Audio', 'Article', 'Page', 'Event']) {
        const verdict = shows(withObject({ type, name: 'sunset' }));
        expect(verdict.shown, type).to.equal(true);
        expect(verdict.post?.text, type).to.equal(`<h2>sunset</h2>\n\n<a href="${PAGE}">${PAGE}</a>`);
      }
      const document = shows(withObject({ type: 'Document' }));
      expect(document.shown).to.equal(false);
      expect(document.reasons.join()).to.match(/neither supported nor converted/);
    });

    it('ignores content of a converted object and puts its summary in the text', () => {
      const verdict = shows(withObject({ type: 'Article', name: 'T', summary: 'S', content: '<p>body</p>' }));
      expect(verdict.post?.text).to.equal(`<h2>T</h2>\n\nS\n\n<a href="${PAGE}">${PAGE}</a>`);
      expect(verdict.post?.contentWarning).to.equal(null);
    });

    it('takes pictures only from attachment, also on a converted object', () => {
      expect(shows(todaysImageCreate()).post?.picture).to.equal(null);
      const image = todaysImageCreate();
      (image.object as Json).attachment = [{ type: 'Image', mediaType: 'image/png', url: FILE }];
      expect(isPicturePost(shows(image))).to.equal(true);
    });

    it('keeps the permalink from url (an http(s) URL, the text/html Link of a list), else the id', () => {
      expect(shows(apiNoteCreate()).post?.permalink).to.equal(PAGE);
      expect(shows(withObject({ url: undefined })).post?.permalink).to.equal(PAGE);
      const other = `${ALICE}/elsewhere`;
      expect(shows(withObject({ url: other })).post?.permalink).to.equal(other);
      const links = [
        { type: 'Link', mediaType: 'image/png', href: FILE },
        { type: 'Link', mediaType: 'text/html', href: other },
      ];
      expect(shows(withObject({ url: links })).post?.permalink).to.equal(other);
      expect(shows(withObject({ url: 'ftp://l2.example/x' })).post?.permalink).to.equal(PAGE);
    });

    it('refuses an object whose id is not on the actor host', () => {
      const verdict = shows(withObject({ id: 'https://elsewhere.example/assets/sunset' }));
      expect(verdict.shown).to.equal(false);
      expect(verdict.reasons.join()).to.match(/actor's host/);
      expect(shows(withObject({ id: 'http://l2.example/assets/sunset' })).shown).to.equal(true);
    });

    it('reads the audience from the object, else from the activity', () => {
      expect(shows(withObject({ to: undefined, cc: undefined })).post?.audience).to.equal('public');
      expect(shows(withObject({ to: [FOLLOWERS], cc: [PUBLIC] })).post?.audience).to.equal('unlisted');
      expect(shows(withObject({ to: [FOLLOWERS], cc: [] })).post?.audience).to.equal('followers');
      expect(shows(withObject({ to: ['as:Public'] })).post?.audience).to.equal('public');
      const direct = shows(withObject({ to: ['https://peer.example/users/bob'], cc: [] }));
      expect(direct.shown).to.equal(false);
      expect(direct.post?.audience).to.equal('direct');
    });

    it('takes alt text from summary, else name, cut to 1,500 characters', () => {
      expect(shows(withAttachment({ summary: 'from summary' })).post?.picture?.alt).to.equal('from summary');
      expect(shows(withAttachment({ name: 'x'.repeat(2000) })).post?.picture?.alt).to.have.length(1500);
      expect(shows(withAttachment({ name: undefined })).post?.picture?.alt).to.equal(null);
    });

    it('keeps at most four media, skips one without an http(s) url, and shows an unknown type as a link', () => {
      const five = Array.from({ length: 5 }, (_, i) => ({
        type: 'Document',
        mediaType: 'image/png',
        url: `${FILE}?${i}`,
      }));
      expect(shows(withObject({ attachment: five })).post?.pictures).to.have.length(4);
      const verdict = shows(withAttachment({ url: 'data:image/png;base64,AAAA' }));
      expect(verdict.post?.pictures).to.deep.equal([]);
      expect(isPicturePost(verdict)).to.equal(false);
      const tiff = shows(withAttachment({ mediaType: 'image/tiff' }));
      expect(tiff.post?.pictures[0]?.kind).to.equal('unknown');
      expect(isPicturePost(tiff)).to.equal(false);
      expect(shows(withAttachment({ mediaType: 'image/webp' })).post?.picture?.kind).to.equal('image');
    });

    it('reads hashtags from tag[type=Hashtag].name without href, and only valid names', () => {
      const tags = [
        { type: 'Hashtag', name: '#Art' },
        { type: 'Hashtag', name: '#2024' },
        { type: 'Hashtag', name: '#sci-fi' },
        { type: 'Hashtag' },
        { type: 'Mention', name: '#mention' },
      ];
      const verdict = shows(withObject({ tag: tags }));
      expect(verdict.post?.hashtags).to.deep.equal(['art', 'scifi']);
      expect(verdict.notes.join()).to.match(/#2024 dropped/);
    });

    it('hides media when sensitive and shows a Note summary as the content warning', () => {
      const post = shows(withObject({ sensitive: true, summary: 'flash' })).post;
      expect(post?.sensitive).to.equal(true);
      expect(post?.contentWarning).to.equal('flash');
      expect(shows(apiNoteCreate()).post?.contentWarning).to.equal(null);
    });

    it('needs a local follower (or a mention) and the signer to be the actor', () => {
      expect(shows(apiNoteCreate(), { followedByLocalAccounts: false }).shown).to.equal(false);
      expect(shows(apiNoteCreate(), { signer: 'https://peer.example/users/bob' }).shown).to.equal(false);
      expect(shows({ ...apiNoteCreate(), object: PAGE }).reasons.join()).to.match(/by reference/);
    });
  });

  describe('an Update', () => {
    const previous = apiNoteCreate();
    const updateOf = (changes: Json): Json => ({
      ...createOf({ ...apiNote(), ...changes }),
      type: 'Update',
      id: `${ALICE}#updates/1`,
    });

    it('is an edit when the text changed and `updated` is newer', () => {
      const verdict = mastodon.updatesPost(
        previous,
        updateOf({ content: '<p>new</p>', updated: '2026-01-02T00:00:00Z' }),
      );
      expect(verdict.outcome).to.equal('edited');
      expect(verdict.post?.text).to.equal('<p>new</p>');
    });

    it('is an edit when only the alt text changed', () => {
      const attachment = [{ ...(apiNote().attachment as Json[])[0], name: 'new alt' }];
      const verdict = mastodon.updatesPost(
        previous,
        updateOf({ attachment, updated: '2026-01-02T00:00:00Z' }),
      );
      expect(verdict.outcome).to.equal('edited');
    });

    it('is no edit without a newer `updated`, or when nothing shown changed', () => {
      expect(mastodon.updatesPost(previous, updateOf({ content: '<p>new</p>' })).outcome).to.equal('ignored');
      const earlier = createOf({ ...apiNote(), updated: '2026-01-03T00:00:00Z' });
      expect(
        mastodon.updatesPost(earlier, updateOf({ content: '<p>new</p>', updated: '2026-01-02T00:00:00Z' }))
          .outcome,
      ).to.equal('ignored');
      expect(
        mastodon.updatesPost(previous, updateOf({ sensitive: true, updated: '2026-01-02T00:00:00Z' }))
          .outcome,
      ).to.equal('unchanged');
    });

    it('does not edit a converted status', () => {
      const image = createOf({ ...apiNote(), type: 'Image', name: 'sunset' });
      const update = { ...updateOf({ type: 'Image', name: 'dusk', updated: '2026-01-02T00:00:00Z' }) };
      expect(mastodon.updatesPost(image, update).outcome).to.equal('ignored');
    });
  });

  describe('a Delete', () => {
    it('removes the status with the Tombstone id, of the same actor', () => {
      const del = { type: 'Delete', actor: ALICE, object: { id: PAGE, type: 'Tombstone' } };
      expect(mastodon.deletesPost(apiNoteCreate(), del).removed).to.equal(true);
      expect(mastodon.deletesPost(apiNoteCreate(), { ...del, object: PAGE }).removed).to.equal(true);
      expect(
        mastodon.deletesPost(apiNoteCreate(), { ...del, object: { id: `${PAGE}2`, type: 'Tombstone' } })
          .removed,
      ).to.equal(false);
    });
  });

  describe('a profile', () => {
    it('shows name, bio, avatar, header, fields, pinned collection and the search flags', () => {
      const verdict = mastodon.showsProfile(apiActor(), ALICE);
      expect(verdict.accepted).to.equal(true);
      expect(verdict.profile).to.deep.include({
        displayName: 'Alice Example',
        bioHtml: '<p>Paints harbours.</p>',
        pinnedCollection: `${ALICE}/featured`,
        indexable: true,
        discoverable: true,
        locked: false,
      });
      expect(verdict.profile?.avatar).to.deep.equal({
        url: 'https://cdn.example/alice.png',
        alt: 'Alice, smiling',
      });
      expect(verdict.profile?.header?.url).to.equal('https://cdn.example/harbour.jpg');
      expect(verdict.profile?.fields.map((f) => [f.name, f.verifiable])).to.deep.equal([
        ['Site', true],
        ['Medium', false],
      ]);
    });

    it('refuses an actor without the AS context, preferredUsername, inbox or actor type', () => {
      expect(
        mastodon.showsProfile(apiActor({ '@context': 'https://w3id.org/security/v1' })).accepted,
      ).to.equal(false);
      expect(mastodon.showsProfile(apiActor({ preferredUsername: undefined })).accepted).to.equal(false);
      expect(mastodon.showsProfile(apiActor({ inbox: '' })).accepted).to.equal(false);
      expect(mastodon.showsProfile(apiActor({ type: 'Note' })).accepted).to.equal(false);
      expect(mastodon.showsProfile(apiActor(), `${ALICE}/`).accepted).to.equal(false);
    });

    it('reads fields only from a list of PropertyValue with string name and value', () => {
      const single = { type: 'PropertyValue', name: 'Site', value: 'x' };
      expect(mastodon.showsProfile(apiActor({ attachment: single })).profile?.fields).to.deep.equal([]);
      const mixed = [
        single,
        { type: 'PropertyValue', name: 'n', value: 3 },
        { type: 'Note', name: 'a', value: 'b' },
      ];
      expect(mastodon.showsProfile(apiActor({ attachment: mixed })).profile?.fields).to.deep.equal([
        { name: 'Site', value: 'x', verifiable: false },
      ]);
    });

    it('verifies a field only when the link text is the https URL itself', () => {
      const field = (value: string) =>
        mastodon.showsProfile(apiActor({ attachment: [{ type: 'PropertyValue', name: 'w', value }] })).profile
          ?.fields[0]?.verifiable;
      expect(field('<a href="https://alice.example" rel="me">https://alice.example</a>')).to.equal(true);
      expect(field('<a href="https://alice.example" rel="me">alice.example</a>')).to.equal(false);
      expect(field('<a href="http://alice.example">http://alice.example</a>')).to.equal(false);
    });

    it('shows the url only on the actor host', () => {
      expect(
        mastodon.showsProfile(apiActor({ url: 'https://elsewhere.example/@alice' })).profile?.url,
      ).to.equal(ALICE);
    });

    it('pins only Notes on the actor host from the featured collection', () => {
      const collection = {
        '@context': 'https://www.w3.org/ns/activitystreams',
        type: 'OrderedCollection',
        orderedItems: [
          apiNote(),
          { ...apiNote(), type: 'Image' },
          'https://elsewhere.example/n/1',
          `${PAGE}2`,
        ],
      };
      expect(mastodon.pinnedFromFeatured(collection, ALICE).pinned).to.deep.equal([PAGE, `${PAGE}2`]);
      expect(
        mastodon.pinnedFromFeatured({ ...collection, '@context': undefined }, ALICE).pinned,
      ).to.deep.equal([]);
    });
  });
});
