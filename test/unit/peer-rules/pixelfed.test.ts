import { expect } from 'chai';
import { isPicturePost, pixelfed, type Json } from '../../support/peer-rules/index.js';
import {
  ALICE,
  BASE,
  FOLLOWERS,
  PAGE,
  PUBLIC,
  apiActor,
  apiNote,
  apiNoteCreate,
  createOf,
  withAttachment,
  withObject,
} from './fixtures.js';

const shows = (create: Json, options?: pixelfed.PixelfedOptions) => pixelfed.showsPost(create, options);

describe('peer rules: Pixelfed', () => {
  describe('a Create', () => {
    it('stores only a Note with a non-empty attachment and `to` on the object', () => {
      expect(isPicturePost(shows(apiNoteCreate()))).to.equal(true);
      expect(shows(withObject({ to: undefined })).reasons.join()).to.match(/no `to` on the object/);
      expect(shows(withObject({ attachment: [] })).reasons.join()).to.match(/without attachment/);
      expect(shows(withObject({ type: 'Image' })).reasons.join()).to.match(/only a Note/);
      expect(shows(withObject({ type: 'Article' })).shown).to.equal(false);
    });

    it('accepts the media types of the instance list (default image/jpeg, image/png, image/gif) only', () => {
      expect(shows(withAttachment({ mediaType: 'image/gif' })).shown).to.equal(true);
      const webp = withAttachment({ mediaType: 'image/webp' });
      expect(shows(webp).shown).to.equal(false);
      expect(shows(webp).reasons.join()).to.match(/mediaType image\/webp not in/);
      expect(shows(webp, { mediaTypes: ['image/jpeg', 'image/png', 'image/webp'] }).shown).to.equal(true);
    });

    it('accepts attachment types Document and Image, and Video only when video/mp4 is allowed', () => {
      expect(shows(withAttachment({ type: 'Image' })).shown).to.equal(true);
      expect(shows(withAttachment({ type: 'Link' })).shown).to.equal(false);
      const video = withAttachment({
        type: 'Video',
        mediaType: 'video/mp4',
        url: 'https://cdn.example/v.mp4',
      });
      expect(shows(video).shown).to.equal(false);
      const withVideo = shows(video, { mediaTypes: ['image/jpeg', 'image/png', 'video/mp4'] });
      expect(withVideo.shown).to.equal(true);
      expect(withVideo.post?.picture?.kind).to.equal('video');
    });

    it('drops the whole post for one bad attachment: width/height must be integers 1..5000', () => {
      expect(shows(withAttachment({ width: 4000, height: 3000 })).shown).to.equal(true);
      expect(shows(withAttachment({ width: '1024' })).shown).to.equal(true);
      expect(shows(withAttachment({ width: 6000 })).shown).to.equal(false);
      expect(shows(withAttachment({ height: 0 })).shown).to.equal(false);
      expect(shows(withAttachment({ width: 12.5 })).shown).to.equal(false);
      const good = (apiNote().attachment as Json[])[0] as Json;
      const twoItems = withObject({ attachment: [good, { ...good, mediaType: 'image/tiff' }] });
      expect(shows(twoItems).shown).to.equal(false);
      expect(shows(withAttachment({ blurhash: 'abc' })).shown).to.equal(false);
      expect(shows(withAttachment({ name: 5 })).shown).to.equal(false);
    });

    it('shows no picture (a text status, in no timeline) when the file URL is not https', () => {
      const verdict = shows(withAttachment({ url: 'http://cdn.example/sunset.png' }));
      expect(verdict.shown).to.equal(false);
      expect(verdict.post?.pictures).to.deep.equal([]);
      expect(shows(withAttachment({ url: ['https://cdn.example/a.png'] })).shown).to.equal(false);
    });

    it('needs https id and url, a string url, and `published`', () => {
      expect(shows(withObject({ id: 'http://l2.example/assets/sunset' })).shown).to.equal(false);
      expect(shows(withObject({ url: 'http://l2.example/assets/sunset' })).shown).to.equal(false);
      expect(shows(withObject({ url: [{ type: 'Link', href: PAGE }] })).reasons.join()).to.match(
        /not a string/,
      );
      expect(shows(withObject({ url: undefined })).post?.permalink).to.equal(PAGE);
      expect(shows(withObject({ published: undefined })).shown).to.equal(false);
      const local = withObject({ id: 'https://localhost/assets/sunset', url: undefined });
      expect(shows({ ...local, actor: 'https://localhost/users/alice' }).shown).to.equal(false);
    });

    it('stores the delivered object only when attributedTo is the actor and the id is on its host', () => {
      const other = shows(withObject({ attributedTo: 'https://l2.example/users/bob' }));
      expect(other.shown).to.equal(false);
      expect(other.reasons.join()).to.match(/fetches it by id/);
      expect(shows(withObject({ attributedTo: [{ type: 'Person', id: ALICE }] })).shown).to.equal(true);
    });

    it('links hashtags only when they have both href and name', () => {
      const tags = [
        { type: 'Hashtag', href: `${BASE}/tags/art`, name: '#art' },
        { type: 'Hashtag', name: '#sea' },
      ];
      const verdict = shows(withObject({ tag: tags }));
      expect(verdict.post?.hashtags).to.deep.equal(['art']);
      expect(verdict.notes.join()).to.match(/#sea dropped/);
    });

    it('makes a post with Public in cc unlisted, even when `to` has it too', () => {
      expect(shows(withObject({ to: [PUBLIC], cc: [FOLLOWERS] })).post?.audience).to.equal('public');
      expect(shows(withObject({ to: [PUBLIC], cc: [PUBLIC] })).post?.audience).to.equal('unlisted');
      expect(shows(withObject({ to: [FOLLOWERS], cc: [] })).post?.audience).to.equal('followers');
    });

    it('uses summary as the content warning only on a sensitive post', () => {
      expect(shows(withObject({ summary: 'cw' })).post?.contentWarning).to.equal(null);
      const post = shows(withObject({ summary: 'cw', sensitive: true })).post;
      expect(post?.contentWarning).to.equal('cw');
      expect(post?.sensitive).to.equal(true);
    });

    it('drops notes from an actor nobody on the instance follows (default setting)', () => {
      expect(shows(apiNoteCreate(), { actorHasFollowers: false }).shown).to.equal(false);
    });

    it('stores a note addressed to one local account as a direct message', () => {
      const dm = withObject({ to: ['https://pixelfed.example/users/carol'], cc: [] });
      expect(shows(dm, { domain: 'pixelfed.example' }).reasons.join()).to.match(/direct message/);
    });
  });

  describe('an Update and a Delete', () => {
    it('edits a Note on every Update, whatever `updated` says', () => {
      const update = { ...createOf({ ...apiNote(), content: '<p>new</p>' }), type: 'Update' };
      const verdict = pixelfed.updatesPost(apiNoteCreate(), update);
      expect(verdict.outcome).to.equal('edited');
      expect(verdict.post?.text).to.equal('<p>new</p>');
      const image = { ...createOf({ ...apiNote(), type: 'Image' }), type: 'Update' };
      expect(pixelfed.updatesPost(apiNoteCreate(), image).outcome).to.equal('ignored');
    });

    it('removes a status on a Delete of a Tombstone, not of a bare id', () => {
      const del = { type: 'Delete', actor: ALICE, object: { id: PAGE, type: 'Tombstone' } };
      expect(pixelfed.deletesPost(apiNoteCreate(), del).removed).to.equal(true);
      expect(pixelfed.deletesPost(apiNoteCreate(), { ...del, object: PAGE }).removed).to.equal(false);
      expect(
        pixelfed.deletesPost(apiNoteCreate(), { ...del, object: { id: PAGE, type: 'Note' } }).removed,
      ).to.equal(false);
    });
  });

  describe('a profile', () => {
    it('shows name, bio and an https Image avatar; no header, no fields', () => {
      const verdict = pixelfed.showsProfile(apiActor());
      expect(verdict.accepted).to.equal(true);
      expect(verdict.profile).to.deep.include({
        displayName: 'Alice Example',
        header: null,
        indexable: true,
        locked: false,
      });
      expect(verdict.profile?.fields).to.deep.equal([]);
      expect(verdict.profile?.avatar?.url).to.equal('https://cdn.example/alice.png');
      const linkIcon = pixelfed.showsProfile(apiActor({ icon: 'https://cdn.example/alice.png' }));
      expect(linkIcon.profile?.avatar).to.equal(null);
      expect(pixelfed.showsProfile(apiActor({ name: undefined })).profile?.displayName).to.equal('user');
    });

    it('refuses an actor with an odd username, no public key, or http ids', () => {
      expect(pixelfed.showsProfile(apiActor({ preferredUsername: 'al+ice' })).accepted).to.equal(false);
      expect(pixelfed.showsProfile(apiActor({ preferredUsername: 'al_i.ce-1' })).accepted).to.equal(true);
      expect(pixelfed.showsProfile(apiActor({ publicKey: undefined })).accepted).to.equal(false);
      expect(
        pixelfed.showsProfile(apiActor({ inbox: 'http://l2.example/users/alice/inbox' })).accepted,
      ).to.equal(false);
    });

    it('applies an Update{Person} only with a non-empty name and summary and a jpeg/png icon', () => {
      const update = (changes: Json = {}) => ({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${ALICE}#updates/1`,
        type: 'Update',
        actor: ALICE,
        object: apiActor(changes),
      });
      expect(pixelfed.acceptsProfileUpdate(update())).to.deep.equal({ accepted: true, reasons: [] });
      expect(pixelfed.acceptsProfileUpdate(update({ summary: '' })).accepted).to.equal(false);
      expect(pixelfed.acceptsProfileUpdate(update({ summary: undefined })).accepted).to.equal(false);
      expect(pixelfed.acceptsProfileUpdate(update({ name: null })).accepted).to.equal(false);
      const webp = { type: 'Image', mediaType: 'image/webp', url: 'https://cdn.example/a.webp' };
      expect(pixelfed.acceptsProfileUpdate(update({ icon: webp })).reasons.join()).to.match(/icon.mediaType/);
      expect(pixelfed.acceptsProfileUpdate(update({ following: undefined })).accepted).to.equal(false);
      expect(
        pixelfed.acceptsProfileUpdate(update({ url: 'https://elsewhere.example/alice' })).accepted,
      ).to.equal(false);
    });
  });
});
