import { expect } from 'chai';
import { isPicturePost, misskey, type Json } from '../../support/peer-rules/index.js';
import {
  ALICE,
  FILE,
  FOLLOWERS,
  apiActor,
  apiNoteCreate,
  createOf,
  todaysImageCreate,
  withAttachment,
  withObject,
} from './fixtures.js';

const shows = (create: Json, options?: misskey.MisskeyOptions) => misskey.showsPost(create, options);

describe('peer rules: Misskey', () => {
  describe('a Create', () => {
    it('refuses a note whose id or url is not https', () => {
      expect(isPicturePost(shows(apiNoteCreate()))).to.equal(true);
      expect(shows(withObject({ id: 'http://l2.example/assets/sunset' })).reasons.join()).to.match(
        /note\.id/,
      );
      expect(shows(withObject({ url: 'http://l2.example/assets/sunset' })).reasons.join()).to.match(
        /note url/,
      );
      expect(shows(withObject({ url: [{ type: 'Link', href: 'http://l2.example/a' }] })).shown).to.equal(
        false,
      );
    });

    it('refuses the whole note for an attachment without an https string url', () => {
      expect(shows(withAttachment({ url: 'http://cdn.example/a.png' })).shown).to.equal(false);
      expect(shows(withAttachment({ url: { type: 'Link', href: FILE } })).reasons.join()).to.match(
        /type of url/,
      );
      expect(shows(withAttachment({ url: undefined })).reasons.join()).to.match(/url not provided/);
    });

    it('accepts a url on another host than the id, unless the stricter fork rule is on', () => {
      const elsewhere = withObject({ url: 'https://cdn.example/sunset.png' });
      expect(shows(elsewhere).shown).to.equal(true);
      expect(shows(elsewhere, { requireUrlOnIdHost: true }).shown).to.equal(false);
    });

    it('copies the audience between activity and object, and accepts Image as a post (without its file)', () => {
      const verdict = shows(todaysImageCreate());
      expect(verdict.post?.audience).to.equal('public');
      expect(verdict.post?.text).to.equal('Sunset over the harbour');
      expect(verdict.post?.pictures).to.deep.equal([]);
      expect(shows(withObject({ type: 'Tombstone' })).shown).to.equal(false);
    });

    it('keeps to the audience it knows: `as:Public` is not public to Misskey', () => {
      const quirk = createOf(
        { ...(withObject({}).object as Json), to: ['as:Public'], cc: [] },
        { to: [], cc: [] },
      );
      expect(shows(quirk).shown).to.equal(false);
      const followers = createOf(
        { ...(withObject({}).object as Json), to: [FOLLOWERS], cc: [] },
        { to: [], cc: [] },
      );
      expect(shows(followers).post?.audience).to.equal('followers');
    });

    it('needs the attribution to be the sender, on the id host', () => {
      expect(shows(withObject({ attributedTo: 'https://l2.example/users/bob' })).shown).to.equal(false);
      expect(shows(withObject({ attributedTo: undefined })).shown).to.equal(true);
      const foreign = withObject({ id: 'https://elsewhere.example/n/1' });
      expect(shows(foreign).reasons.join()).to.match(/different host/);
    });

    it('reads hashtags whose name starts with #, and cuts alt text to 512 characters', () => {
      const tags = [
        { type: 'Hashtag', name: '#art' },
        { type: 'Hashtag', name: 'sea' },
      ];
      expect(shows(withObject({ tag: tags })).post?.hashtags).to.deep.equal(['art']);
      expect(shows(withAttachment({ name: 'x'.repeat(600) })).post?.picture?.alt).to.have.length(512);
    });

    it('uses summary as the content warning, and an empty summary as none', () => {
      expect(shows(withObject({ summary: 'cw' })).post?.contentWarning).to.equal('cw');
      expect(shows(withObject({ summary: '' })).post?.contentWarning).to.equal(null);
    });
  });

  describe('a profile', () => {
    it('accepts the §4.2 actor with its fields, avatar and flags', () => {
      const verdict = misskey.showsProfile(apiActor(), ALICE);
      expect(verdict.accepted).to.equal(true);
      expect(verdict.profile?.fields).to.have.length(2);
      expect(verdict.profile?.avatar?.alt).to.equal('Alice, smiling');
      expect(verdict.profile?.discoverable).to.equal(true);
    });

    it('refuses collections, inbox or url on another host, and usernames outside /^\\w([\\w-.]*\\w)?$/', () => {
      expect(misskey.showsProfile(apiActor({ inbox: 'https://other.example/inbox' })).accepted).to.equal(
        false,
      );
      expect(misskey.showsProfile(apiActor({ outbox: 'https://other.example/o' })).accepted).to.equal(false);
      expect(
        misskey.showsProfile(apiActor({ endpoints: { sharedInbox: 'https://other.example/i' } })).accepted,
      ).to.equal(false);
      expect(misskey.showsProfile(apiActor({ url: 'https://other.example/@alice' })).reasons.join()).to.match(
        /host mismatch/,
      );
      expect(misskey.showsProfile(apiActor({ url: 'http://l2.example/users/alice' })).accepted).to.equal(
        false,
      );
      expect(misskey.showsProfile(apiActor({ preferredUsername: 'alice.' })).accepted).to.equal(false);
      expect(misskey.showsProfile(apiActor({ preferredUsername: 'a'.repeat(129) })).accepted).to.equal(false);
      expect(misskey.showsProfile(apiActor(), 'https://other.example/users/alice').accepted).to.equal(false);
    });

    it('shows no avatar whose url is not an https string', () => {
      const icon = { type: 'Image', url: 'http://cdn.example/alice.png' };
      expect(misskey.showsProfile(apiActor({ icon })).profile?.avatar).to.equal(null);
    });
  });
});
