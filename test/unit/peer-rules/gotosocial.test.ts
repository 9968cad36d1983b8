import { expect } from 'chai';
import { gotosocial, isPicturePost, type Json } from '../../support/peer-rules/index.js';
import {
  ALICE,
  FILE,
  FOLLOWERS,
  PAGE,
  PEM,
  PUBLIC,
  apiActor,
  apiNoteCreate,
  todaysImageCreate,
  withAttachment,
  withObject,
} from './fixtures.js';

const shows = (create: Json, options?: gotosocial.GoToSocialOptions) => gotosocial.showsPost(create, options);

describe('peer rules: GoToSocial', () => {
  describe('a Create', () => {
    it('needs `to` or `cc` on the object itself; the activity audience is not read', () => {
      expect(isPicturePost(shows(apiNoteCreate()))).to.equal(true);
      const bare = shows(withObject({ to: undefined, cc: undefined }));
      expect(bare.shown).to.equal(false);
      expect(bare.reasons.join()).to.match(/neither `to` nor `cc`/);
      expect(shows(withObject({ to: undefined, cc: [PUBLIC] })).post?.audience).to.equal('unlisted');
      expect(shows(withObject({ to: [FOLLOWERS], cc: [] })).post?.audience).to.equal('followers');
    });

    it('accepts statusable types (Note, Document, Image, Article…) but not Audio', () => {
      for (const type of ['Note', 'Document', 'Image', 'Article', 'Page', 'Video']) {
        expect(shows(withObject({ type })).shown, type).to.equal(true);
      }
      expect(shows(withObject({ type: 'Audio' })).reasons.join()).to.match(/not statusable/);
    });

    it("turns the object's `name` into a content warning when there is no summary", () => {
      const image = todaysImageCreate();
      (image.object as Json).to = [PUBLIC];
      const verdict = shows(image);
      expect(verdict.post?.contentWarning).to.equal('sunset');
      expect(verdict.post?.picture).to.equal(null);
      expect(shows(withObject({ name: 'n', summary: 's' })).post?.contentWarning).to.equal('s');
      expect(shows(apiNoteCreate()).post?.contentWarning).to.equal(null);
    });

    it('takes media only from attachment items of a media type whose url is a plain IRI', () => {
      expect(shows(withAttachment({ url: { type: 'Link', href: FILE } })).post?.pictures).to.deep.equal([]);
      expect(shows(withAttachment({ type: 'Link' })).post?.pictures).to.deep.equal([]);
      expect(shows(withAttachment({ type: 'Audio', mediaType: 'audio/mpeg' })).post?.picture?.kind).to.equal(
        'audio',
      );
      expect(shows(withAttachment({ summary: 'from summary' })).post?.picture?.alt).to.equal('from summary');
    });

    it('reads hashtags by name alone, normalised', () => {
      const tags = [
        { type: 'Hashtag', name: '#Art' },
        { type: 'Hashtag', name: '#sci-fi' },
        { type: 'Hashtag', name: '#2024' },
      ];
      expect(shows(withObject({ tag: tags })).post?.hashtags).to.deep.equal(['art', '2024']);
    });

    it('uses url only when it is an IRI, else the id', () => {
      expect(shows(apiNoteCreate()).post?.permalink).to.equal(PAGE);
      const link = shows(withObject({ url: { type: 'Link', href: `${ALICE}/x` } }));
      expect(link.post?.permalink).to.equal(PAGE);
    });

    it('re-fetches an object not attributed to the sender, and drops posts of unfollowed senders', () => {
      expect(shows(withObject({ attributedTo: 'https://l2.example/users/bob' })).reasons.join()).to.match(
        /forwarded/,
      );
      expect(shows(withObject({ attributedTo: undefined })).shown).to.equal(false);
      expect(shows(apiNoteCreate(), { receiverFollowsSender: false }).shown).to.equal(false);
    });
  });

  describe('a profile', () => {
    it('shows fields from PropertyValue, avatar and header Images, and falls back to the username', () => {
      const verdict = gotosocial.showsProfile(apiActor());
      expect(verdict.accepted).to.equal(true);
      expect(verdict.profile?.fields.map((f) => f.name)).to.deep.equal(['Site', 'Medium']);
      expect(verdict.profile?.header?.url).to.equal('https://cdn.example/harbour.jpg');
      expect(verdict.profile?.indexable).to.equal(null);
      expect(gotosocial.showsProfile(apiActor({ name: undefined })).profile?.displayName).to.equal('alice');
      const emptyValue = [{ type: 'PropertyValue', name: 'x', value: '' }];
      expect(gotosocial.showsProfile(apiActor({ attachment: emptyValue })).profile?.fields).to.deep.equal([]);
      const document = { type: 'Document', url: 'https://cdn.example/alice.png' };
      expect(gotosocial.showsProfile(apiActor({ icon: document })).profile?.avatar).to.equal(null);
    });

    it('refuses an actor without username, with a key of another owner or an unparseable PEM', () => {
      expect(gotosocial.showsProfile(apiActor({ preferredUsername: '' })).accepted).to.equal(false);
      const otherKey = { id: `${ALICE}#main-key`, owner: 'https://l2.example/users/bob', publicKeyPem: PEM };
      expect(gotosocial.showsProfile(apiActor({ publicKey: otherKey })).reasons.join()).to.match(/not owned/);
      const badPem = { id: `${ALICE}#main-key`, owner: ALICE, publicKeyPem: 'ssh-rsa AAAA' };
      expect(gotosocial.showsProfile(apiActor({ publicKey: badPem })).accepted).to.equal(false);
    });

    it('trusts featured only on the account domain, and defaults locked to true', () => {
      expect(
        gotosocial.showsProfile(apiActor({ featured: 'https://other.example/f' })).profile?.pinnedCollection,
      ).to.equal(null);
      expect(
        gotosocial.showsProfile(apiActor({ manuallyApprovesFollowers: undefined })).profile?.locked,
      ).to.equal(true);
    });
  });
});
