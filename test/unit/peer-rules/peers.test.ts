import { expect } from 'chai';
import {
  akkoma,
  gotosocial,
  isPicturePost,
  mastodon,
  misskey,
  peers,
  pixelfed,
  type Json,
} from '../../support/peer-rules/index.js';
import {
  ALICE,
  FILE,
  PAGE,
  PUBLIC,
  apiActor,
  apiNoteCreate,
  todaysImageCreate,
  withAttachment,
} from './fixtures.js';

describe('peer rules: one document through all five platforms', () => {
  it("shows today's L2 shape (an Image whose url is the file) as a picture post nowhere", () => {
    const create = todaysImageCreate();
    for (const peer of peers) expect(isPicturePost(peer.showsPost(create)), peer.name).to.equal(false);

    // Mastodon converts it: a title and a link to the file, no media, content ignored.
    const m = mastodon.showsPost(create);
    expect(m.shown).to.equal(true);
    expect(m.post?.text).to.equal(`<h2>sunset</h2>\n\n<a href="${FILE}">${FILE}</a>`);
    expect(m.post?.permalink).to.equal(FILE);
    expect(m.post?.picture).to.equal(null);
    // Pixelfed stores only a Note with attachments.
    expect(pixelfed.showsPost(create).reasons.join()).to.match(/no `to` on the object/);
    // GoToSocial reads the audience from the object only.
    expect(gotosocial.showsPost(create).reasons.join()).to.match(/neither `to` nor `cc`/);
    // Akkoma has no validator for an Image object.
    expect(akkoma.showsPost(create).reasons.join()).to.match(/object type Image has no validator/);
    // Misskey takes the audience from the activity too: a text note without the picture.
    const k = misskey.showsPost(create);
    expect(k.shown).to.equal(true);
    expect(k.post?.pictures).to.deep.equal([]);
  });

  it("drops today's Document asset on Mastodon, Pixelfed and Akkoma, and today's Video on Akkoma", () => {
    const today = (type: string, mediaType: string): Json => {
      const create = todaysImageCreate();
      create.object = { ...(create.object as Json), type, mediaType };
      return create;
    };
    const document = today('Document', 'application/pdf');
    expect(mastodon.showsPost(document).reasons.join()).to.match(/neither supported nor converted/);
    expect(pixelfed.showsPost(document).shown).to.equal(false);
    expect(akkoma.showsPost(document).shown).to.equal(false);
    expect(akkoma.showsPost(today('Video', 'video/mp4')).reasons.join()).to.match(/\[:cc, :to\]/);
    const video = today('Video', 'video/mp4');
    (video.object as Json).to = [PUBLIC];
    expect(akkoma.showsPost(video).reasons.join()).to.match(/without attachment/);
  });

  it('shows the API.md §4.1 Note as a picture post everywhere, with its alt text and hashtag', () => {
    for (const peer of peers) {
      const verdict = peer.showsPost(apiNoteCreate());
      expect(verdict.reasons, peer.name).to.deep.equal([]);
      expect(isPicturePost(verdict), peer.name).to.equal(true);
      expect(verdict.post?.picture, peer.name).to.deep.include({
        url: FILE,
        alt: 'The sun setting over the harbour',
        mediaType: 'image/png',
        kind: 'image',
      });
      expect(verdict.post?.permalink, peer.name).to.equal(PAGE);
      expect(verdict.post?.hashtags, peer.name).to.deep.equal(['art']);
      expect(verdict.post?.audience, peer.name).to.equal('public');
      expect(verdict.post?.sensitive, peer.name).to.equal(false);
    }
  });

  it('loses the picture on Pixelfed and the whole note on Misskey when the file URL is http:', () => {
    const create = withAttachment({ url: 'http://cdn.example/sunset.png' });
    expect(isPicturePost(pixelfed.showsPost(create))).to.equal(false);
    expect(misskey.showsPost(create).shown).to.equal(false);
    expect(misskey.showsPost(create).reasons.join()).to.match(/unexpected schema of url/);
    // Mastodon, GoToSocial and Akkoma fetch http: media.
    for (const verdict of [
      mastodon.showsPost(create),
      gotosocial.showsPost(create),
      akkoma.showsPost(create),
    ]) {
      expect(isPicturePost(verdict)).to.equal(true);
    }
  });

  it('accepts the API.md §4.2 actor everywhere', () => {
    for (const peer of peers) {
      const verdict = peer.showsProfile(apiActor());
      expect(verdict.reasons, peer.name).to.deep.equal([]);
      expect(verdict.accepted, peer.name).to.equal(true);
      expect(verdict.profile?.avatar?.url, peer.name).to.equal('https://cdn.example/alice.png');
      expect(verdict.profile?.url, peer.name).to.equal(ALICE);
    }
  });
});
