import { expect } from 'chai';
import { akkoma, isPicturePost, type Json } from '../../support/peer-rules/index.js';
import {
  ALICE,
  FILE,
  FOLLOWERS,
  apiActor,
  apiNoteCreate,
  createOf,
  withAttachment,
  withObject,
} from './fixtures.js';

const shows = (create: Json, options?: akkoma.AkkomaOptions) => akkoma.showsPost(create, options);

describe('peer rules: Akkoma / Pleroma', () => {
  describe('a Create', () => {
    it('refuses Image and Document objects (Akkoma), and Image without attachment (Pleroma)', () => {
      expect(isPicturePost(shows(apiNoteCreate()))).to.equal(true);
      expect(shows(withObject({ type: 'Document' })).shown).to.equal(false);
      expect(shows(withObject({ type: 'Image' })).reasons.join()).to.match(/no validator/);
      const pleroma = { flavour: 'pleroma' } as const;
      expect(shows(withObject({ type: 'Image' }), pleroma).shown).to.equal(true);
      expect(shows(withObject({ type: 'Image', attachment: undefined }), pleroma).reasons.join()).to.match(
        /required :attachment/,
      );
      expect(shows(withObject({ type: 'Document' }), pleroma).shown).to.equal(false);
    });

    it('refuses Audio and Video without attachment', () => {
      const audio = { type: 'Document', mediaType: 'audio/mpeg', url: 'https://cdn.example/a.mp3' };
      expect(shows(withObject({ type: 'Audio', attachment: [audio] })).post?.picture?.kind).to.equal('audio');
      expect(shows(withObject({ type: 'Audio', attachment: undefined })).shown).to.equal(false);
      expect(
        shows(withObject({ type: 'Video', url: 'https://cdn.example/v.mp4', attachment: undefined })).shown,
      ).to.equal(false);
    });

    it("needs the object's own to or cc (the activity's are replaced by them)", () => {
      expect(shows(withObject({ to: undefined, cc: undefined })).reasons.join()).to.match(/\[:cc, :to\]/);
      expect(shows(withObject({ to: ['as:Public'], cc: [] })).post?.audience).to.equal('public');
      expect(shows(withObject({ to: [FOLLOWERS], cc: [] })).post?.audience).to.equal('followers');
    });

    it('refuses the whole object for an attachment of a non-media type; drops one without href', () => {
      expect(shows(withAttachment({ type: 'PropertyValue' })).shown).to.equal(false);
      const noHref = shows(withAttachment({ url: undefined }));
      expect(noHref.shown).to.equal(true);
      expect(noHref.post?.pictures).to.deep.equal([]);
      expect(
        shows(withAttachment({ url: [{ type: 'Link', href: FILE, mediaType: 'image/png' }] })).post?.picture
          ?.url,
      ).to.equal(FILE);
      expect(isPicturePost(shows(withAttachment({ url: 'http://cdn.example/a.png' })))).to.equal(true);
    });

    it('needs the object id on the host of its author, who sent the activity', () => {
      expect(shows(withObject({ id: 'https://elsewhere.example/n/1' })).shown).to.equal(false);
      expect(shows(withObject({ attributedTo: 'https://l2.example/users/bob' })).shown).to.equal(false);
      expect(shows(createOf({ ...(withObject({}).object as Json) }, { id: 'x' })).shown).to.equal(false);
    });

    it('reads hashtags by name, and a url only when http(s)', () => {
      expect(shows(withObject({ tag: [{ type: 'Hashtag', name: '#Sea' }] })).post?.hashtags).to.deep.equal([
        'sea',
      ]);
      expect(shows(withObject({ url: 'ftp://l2.example/x' })).shown).to.equal(false);
    });
  });

  describe('a profile', () => {
    it('shows avatar with its alt text, fields and the search flags', () => {
      const verdict = akkoma.showsProfile(apiActor());
      expect(verdict.accepted).to.equal(true);
      expect(verdict.profile?.avatar).to.deep.equal({
        url: 'https://cdn.example/alice.png',
        alt: 'Alice, smiling',
      });
      expect(verdict.profile?.fields).to.have.length(2);
      expect(verdict.profile?.indexable).to.equal(true);
      expect(akkoma.showsProfile(apiActor({ indexable: undefined })).profile?.indexable).to.equal(null);
    });

    it('refuses inbox, collections or key on another domain, and an actor without inbox', () => {
      expect(akkoma.showsProfile(apiActor({ inbox: undefined })).accepted).to.equal(false);
      expect(akkoma.showsProfile(apiActor({ inbox: 'https://other.example/inbox' })).accepted).to.equal(
        false,
      );
      expect(akkoma.showsProfile(apiActor({ featured: 'https://other.example/f' })).accepted).to.equal(false);
      const key = { id: 'https://other.example/k', owner: ALICE, publicKeyPem: 'x' };
      expect(akkoma.showsProfile(apiActor({ publicKey: key })).accepted).to.equal(false);
    });
  });
});
