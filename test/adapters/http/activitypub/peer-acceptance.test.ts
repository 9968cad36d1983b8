// Issue 25's promise, platform by platform (API.md §4.1, §4.2): every kind of asset L2 can emit, as L2 serves and
// delivers it, run through the acceptance rules of Mastodon, Pixelfed, GoToSocial, Misskey and Akkoma
// (test/support/peer-rules, read from their source). An asset with a picture is a post with its picture on every
// platform that shows that kind of media; an asset without one is a text post where the platform shows text posts.
// The edits, the deletes, the actor with its profile, its Update and the featured collection go through the same
// rules. Where a platform refuses, the test names it: those are the known limits docs/activitypub.md lists.
import { expect } from 'chai';
import { acceptJob } from '../../../../src/domain/jobs.js';
import type { Username } from '../../../../src/domain/user.js';
import { client, registerUser } from '../../../support/http.js';
import { verifyLdSignature } from '../../../support/independent-ld-verifier.js';
import {
  akkoma,
  gotosocial,
  isPicturePost,
  mastodon,
  misskey,
  peers,
  pixelfed,
  type Peer,
} from '../../../support/peer-rules/index.js';
import type { TestServer } from '../../../support/test-server.js';
import { ScriptedFederation } from '../../../support/use-case-kit.js';
import { AP_ACCEPT, assetBody, startServer, type Api } from '../registry/support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/** An https PUBLIC_URL on a dotted host: Pixelfed and Misskey refuse anything else. */
const BASE = 'https://l2.example';
const ACTOR = `${BASE}/users/alice`;
/** A follower's server: its shared inbox receives the deliveries (recorded, never sent). */
const SHARED_INBOX = 'https://social.example/inbox';
const FILE = (name: string, extension: string) => `https://cdn.example/${name}.${extension}`;

type Shown = 'picture' | 'text' | 'not shown';
type Platform = Peer['name'];
const EVERYWHERE = (shown: Shown): Record<Platform, Shown> => ({
  Mastodon: shown,
  Pixelfed: shown,
  GoToSocial: shown,
  Misskey: shown,
  Akkoma: shown,
});

interface Kind {
  readonly title: string;
  readonly name: string;
  readonly fields: Record<string, unknown>;
  /** What a follower sees on each platform with its default settings. */
  readonly shown: Record<Platform, Shown>;
  /** The media kind the platforms that show the file show it as. */
  readonly media?: 'image' | 'video' | 'audio';
}

const TWENTY_TAGS = [
  'art',
  'Sea',
  'sci-fi',
  '2024',
  'café',
  '日本',
  'snake_case',
  'x1',
  'ÜBER',
  'a.b',
  'a/b',
  'what?',
  '100%',
  'c#',
  '...',
  ...Array.from({ length: 5 }, (_, i) => `tag${i}`),
];
const MARKUP =
  'Look: <script>alert(1)</script> **bold** <b>not bold</b> & "quotes"\nline two\n\nhttps://example.org/x';

/**
 * Every kind of asset L2 can emit. Pixelfed stores only a Note with a file of the instance's media types (default
 * image/jpeg, image/png, image/gif): everything else is a limit of Pixelfed, not a refusal of L2's shape.
 */
const KINDS: readonly Kind[] = [
  {
    title: 'an image (https PNG, with alt text)',
    name: 'image',
    fields: { media_type: 'image/png', url: FILE('image', 'png'), alt_text: 'Cranes against an orange sky' },
    shown: EVERYWHERE('picture'),
    media: 'image',
  },
  {
    title: 'an image without alt text (the description stands in)',
    name: 'no-alt',
    fields: { media_type: 'image/jpeg', url: FILE('no-alt', 'jpg'), description: 'Harbour at dusk' },
    shown: EVERYWHERE('picture'),
    media: 'image',
  },
  {
    title: 'a WebP image (outside Pixelfed’s default media types)',
    name: 'webp',
    fields: { media_type: 'image/webp', url: FILE('webp', 'webp') },
    shown: { ...EVERYWHERE('picture'), Pixelfed: 'not shown' },
    media: 'image',
  },
  {
    title: 'a video',
    name: 'video',
    fields: { media_type: 'video/mp4', url: FILE('video', 'mp4'), alt_text: 'Waves' },
    shown: { ...EVERYWHERE('picture'), Pixelfed: 'not shown' },
    media: 'video',
  },
  {
    title: 'a sound',
    name: 'audio',
    fields: { media_type: 'audio/mpeg', url: FILE('audio', 'mp3'), alt_text: 'Gulls' },
    shown: { ...EVERYWHERE('picture'), Pixelfed: 'not shown' },
    media: 'audio',
  },
  {
    title: 'another media type (a PDF: a link in the text)',
    name: 'pdf',
    fields: { media_type: 'application/pdf', url: FILE('pdf', 'pdf') },
    shown: { ...EVERYWHERE('text'), Pixelfed: 'not shown' },
  },
  {
    title: 'no url',
    name: 'no-url',
    fields: { media_type: 'model/gltf-binary', url: null },
    shown: { ...EVERYWHERE('text'), Pixelfed: 'not shown' },
  },
  {
    title: 'an http (not https) url: a link, never an attachment',
    name: 'http-url',
    fields: { media_type: 'image/png', url: 'http://cdn.example/http-url.png' },
    shown: { ...EVERYWHERE('text'), Pixelfed: 'not shown' },
  },
  {
    title: 'a sensitive image',
    name: 'sensitive',
    fields: { sensitive: true, alt_text: 'Surgery' },
    shown: EVERYWHERE('picture'),
    media: 'image',
  },
  {
    title: 'twenty tags',
    name: 'many-tags',
    fields: { tags: TWENTY_TAGS },
    shown: EVERYWHERE('picture'),
    media: 'image',
  },
  {
    title: 'a description with markup',
    name: 'markup',
    fields: { description: MARKUP },
    shown: EVERYWHERE('picture'),
    media: 'image',
  },
];

/** The verdict as one word, for a table-like comparison. */
function shownAs(peer: Peer, create: Doc): Shown {
  const verdict = peer.showsPost(create);
  if (!verdict.shown) return 'not shown';
  return isPicturePost(verdict) ? 'picture' : 'text';
}

describe('every kind of asset and the profile through the peers’ acceptance rules', function () {
  let server: TestServer;
  let api: Api;
  let alice: string;
  const federation = new ScriptedFederation();
  /** The Create of each kind, as served at its activity URL (the signed document every follower receives). */
  const creates = new Map<string, Doc>();
  let publicKeyPem: string;

  const apGet = async (path: string): Promise<Doc> => {
    const response = await api.get(path, { headers: { accept: AP_ACCEPT } });
    expect(response.status, `${path}: ${response.text}`).to.equal(200);
    return JSON.parse(response.text);
  };
  const patchProfile = async (changes: Record<string, unknown>) => {
    const response = await api.send('PATCH', '/users/alice', changes, { token: alice });
    expect(response.status, response.text).to.equal(200);
  };
  /** The profile Updates delivered so far, oldest first. */
  const profileUpdates = (): Doc[] =>
    federation.delivered
      .map((d) => d.document as Doc)
      .filter((d) => d.type === 'Update' && d.object?.type === 'Person');
  const waitForProfileUpdates = async (count: number): Promise<Doc> => {
    const until = Date.now() + 10_000;
    while (profileUpdates().length < count) {
      if (Date.now() > until)
        throw new Error(`${profileUpdates().length} of ${count} profile Updates delivered`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return profileUpdates()[count - 1]!;
  };

  before(async () => {
    server = await startServer('memory', {
      env: { PUBLIC_URL: BASE },
      override: { federation: () => federation },
    });
    api = client(server.url);
    alice = await registerUser(server.url, 'alice');
    // A follower on another server, written straight into the store: its server's shared inbox gets every delivery.
    const follower = 'https://social.example/users/bob';
    await server.parts.store.followers.add(
      {
        username: 'alice' as Username,
        actor: follower,
        inbox: `${follower}/inbox`,
        sharedInbox: SHARED_INBOX,
        followId: `${follower}#follow`,
        followedAt: new Date(),
      },
      acceptJob(
        { signer: 'alice' as Username, inbox: `${follower}/inbox`, document: { type: 'Accept' } },
        follower,
      ),
      new Date(),
    );
    publicKeyPem = (await apGet('/users/alice')).publicKey.publicKeyPem;
    for (const kind of KINDS) {
      const response = await api.post(
        '/assets',
        { ...assetBody(kind.name), ...kind.fields },
        { token: alice },
      );
      expect(response.status, response.text).to.equal(201);
      creates.set(kind.name, await apGet(new URL(response.json.activity.id).pathname));
    }
  });
  after(() => server.close());

  describe('a Create of each kind of asset', () => {
    for (const kind of KINDS) {
      it(`${kind.title}: ${describeShown(kind.shown)}`, async () => {
        const create = creates.get(kind.name)!;
        expect(await verifyLdSignature(create, publicKeyPem), 'LD-signed by alice').to.equal(true);
        const seen = Object.fromEntries(peers.map((peer) => [peer.name, shownAs(peer, create)]));
        const why = Object.fromEntries(peers.map((peer) => [peer.name, peer.showsPost(create).reasons]));
        expect(seen, JSON.stringify(why)).to.deep.equal(kind.shown);
        for (const peer of peers) {
          const { post } = peer.showsPost(create);
          if (!post) continue;
          expect(post.permalink, `${peer.name}: the asset's page`).to.equal(`${BASE}/assets/${kind.name}`);
          expect(post.audience, peer.name).to.equal('public');
          if (kind.media && post.picture) {
            expect(post.picture.kind, peer.name).to.equal(kind.media);
            expect(post.picture.url, peer.name).to.equal(create.object.attachment[0].url);
            expect(post.picture.alt, `${peer.name}: alt text`).to.be.a('string').and.not.equal('');
          }
        }
      });
    }

    it('a video is a post with its video on a Pixelfed that allows video/mp4 (a sound never is)', () => {
      const verdict = pixelfed.showsPost(creates.get('video')!, {
        mediaTypes: [...pixelfed.DEFAULT_MEDIA_TYPES, 'video/mp4'],
      });
      expect(isPicturePost(verdict), verdict.reasons.join()).to.equal(true);
      expect(verdict.post?.picture?.kind).to.equal('video');
    });

    it('carries the alt text as given, else the description, to every platform', () => {
      for (const peer of peers) {
        expect(peer.showsPost(creates.get('image')!).post?.picture?.alt, peer.name).to.equal(
          'Cranes against an orange sky',
        );
        expect(peer.showsPost(creates.get('no-alt')!).post?.picture?.alt, peer.name).to.equal(
          'Harbour at dusk',
        );
      }
    });

    it('links the file of an asset it cannot attach in the text, on every platform that shows it', () => {
      for (const name of ['pdf', 'http-url']) {
        const url = name === 'pdf' ? FILE('pdf', 'pdf') : 'http://cdn.example/http-url.png';
        for (const peer of peers) {
          const { post } = peer.showsPost(creates.get(name)!);
          if (post) expect(post.text, `${peer.name} ${name}`).to.include(`href="${url}"`);
        }
      }
    });

    it('hides a sensitive asset’s media behind a warning everywhere', () => {
      for (const peer of peers)
        expect(peer.showsPost(creates.get('sensitive')!).post?.sensitive, peer.name).to.equal(true);
      for (const peer of peers)
        expect(peer.showsPost(creates.get('image')!).post?.sensitive, peer.name).to.equal(false);
    });

    it('tags the post with its hashtags, each platform by its own hashtag rules (the known limits)', () => {
      const create = creates.get('many-tags')!;
      expect(create.object.tag).to.have.length(20);
      // Mastodon needs a letter in a hashtag and folds away '-' and '.': #2024 is dropped, #sci-fi is #scifi.
      const m = mastodon.showsPost(create).post!;
      expect(m.hashtags).to.not.include('2024');
      expect(m.hashtags).to.include.members([
        'art',
        'sea',
        'scifi',
        'ab',
        'café',
        '日本',
        'snake_case',
        'über',
      ]);
      // GoToSocial keeps letters, digits and '_' only: #sci-fi and #a.b are dropped.
      const g = gotosocial.showsPost(create).post!;
      expect(g.hashtags).to.not.include.members(['sci-fi', 'scifi', 'a.b']);
      expect(g.hashtags).to.include.members(['art', 'sea', '2024', 'café', '日本', 'über', 'tag4']);
      for (const peer of [pixelfed, misskey, akkoma]) {
        const { post } = peer.showsPost(create);
        expect(post?.hashtags).to.have.length(20);
      }
    });

    it('links every hashtag to its page here, which answers 200 and lists the asset, whatever the tag holds', async () => {
      const create = creates.get('many-tags')!;
      for (const hashtag of create.object.tag as { href: string; name: string }[]) {
        expect(hashtag.href.startsWith(`${BASE}/tags/`), hashtag.href).to.equal(true);
        // What a peer's URL parser makes of the href (a '..' segment would be read as the parent path).
        const url = new URL(hashtag.href);
        expect(url.href, hashtag.name).to.equal(hashtag.href);
        const page = await api.get(url.pathname, { headers: { accept: 'application/json' } });
        expect(page.status, `${hashtag.name}: ${page.text}`).to.equal(200);
        expect(
          page.json.items.map((a: Doc) => a.name),
          hashtag.name,
        ).to.include('many-tags');
      }
    });

    it('refuses a tag that no URL path can hold (. and ..)', async () => {
      for (const tag of ['.', '..']) {
        const response = await api.post(
          '/assets',
          { ...assetBody(`dots${tag.length}`), tags: [tag] },
          { token: alice },
        );
        expect(response.status, response.text).to.equal(400);
        expect(response.json.errors.map((e: Doc) => e.path)).to.deep.equal(['tags']);
      }
    });

    it('cuts a long alt text where a platform keeps less (Misskey 512 characters, the others 1,500)', async () => {
      const response = await api.post(
        '/assets',
        { ...assetBody('long-alt'), description: 'x'.repeat(3000) },
        { token: alice },
      );
      const create = await apGet(new URL(response.json.activity.id).pathname);
      expect(create.object.attachment[0].name).to.have.length(1500);
      for (const peer of peers)
        expect(peer.showsPost(create).post?.picture?.alt, peer.name).to.have.length(
          peer.name === 'Misskey' ? 512 : 1500,
        );
    });

    it('shows markup in a description as the text it is: escaped, never as HTML', () => {
      for (const peer of peers) {
        const text = peer.showsPost(creates.get('markup')!).post!.text;
        expect(text, peer.name).to.not.include('<script');
        expect(text, peer.name).to.not.include('<b>');
        expect(text, peer.name).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
        expect(text, peer.name).to.include('<br>line two');
      }
    });
  });

  describe('an edit and a delete', () => {
    it('an edit of the description, the alt text or the media is an edit on Mastodon and Pixelfed', async () => {
      const response = await api.send(
        'PATCH',
        '/assets/image',
        { description: 'Cranes, again', alt_text: 'Cranes against a red sky' },
        { token: alice },
      );
      expect(response.status, response.text).to.equal(200);
      const update = await apGet(new URL(response.json.activity.id).pathname);
      expect(update.object.id).to.equal(creates.get('image')!.object.id);
      expect(Date.parse(update.object.updated)).to.be.greaterThan(Date.parse(update.object.published));
      const onMastodon = mastodon.updatesPost(creates.get('image')!, update);
      expect(onMastodon.outcome, onMastodon.reasons.join()).to.equal('edited');
      expect(onMastodon.post?.picture?.alt).to.equal('Cranes against a red sky');
      const onPixelfed = pixelfed.updatesPost(creates.get('image')!, update);
      expect(onPixelfed.outcome, onPixelfed.reasons.join()).to.equal('edited');
    });

    it('a delete removes the post on Mastodon and Pixelfed', async () => {
      const response = await api.send('DELETE', '/assets/no-alt', undefined, { token: alice });
      expect(response.status, response.text).to.equal(200);
      const deletion = await apGet(new URL(response.json.activity.id).pathname);
      expect(mastodon.deletesPost(creates.get('no-alt')!, deletion).removed).to.equal(true);
      expect(pixelfed.deletesPost(creates.get('no-alt')!, deletion).removed).to.equal(true);
    });
  });

  describe('the profile', () => {
    before(async () => {
      await api.post(
        '/assets',
        {
          ...assetBody('face'),
          media_type: 'image/jpeg',
          url: FILE('face', 'jpg'),
          alt_text: 'Alice, smiling',
        },
        { token: alice },
      );
      await api.post(
        '/assets',
        {
          ...assetBody('banner'),
          media_type: 'image/png',
          url: FILE('banner', 'png'),
          alt_text: 'The harbour',
        },
        { token: alice },
      );
      await patchProfile({
        display_name: 'Alice Liddell',
        bio: 'Paints harbours.\nhttps://alice.example/work',
        avatar: 'face',
        header: 'banner',
        fields: [
          { name: 'Website', value: 'https://alice.example' },
          { name: 'Pronouns', value: 'she/her' },
        ],
        pinned: ['image', 'video'],
        indexable: true,
      });
    });

    it('every platform takes the actor, with its name, bio and avatar; those that show them, its header and fields', async () => {
      const actor = await apGet('/users/alice');
      for (const peer of peers) {
        const verdict = peer.showsProfile(actor);
        expect(verdict.accepted, `${peer.name}: ${verdict.reasons.join()}`).to.equal(true);
        const profile = verdict.profile!;
        expect(profile.displayName, peer.name).to.equal('Alice Liddell');
        expect(profile.bioHtml, peer.name).to.include('Paints harbours.');
        expect(profile.avatar?.url, peer.name).to.equal(FILE('face', 'jpg'));
      }
      const m = mastodon.showsProfile(actor, ACTOR).profile!;
      expect(m.header).to.deep.equal({ url: FILE('banner', 'png'), alt: 'The harbour' });
      expect(m.avatar?.alt).to.equal('Alice, smiling');
      expect(m.fields.map((f) => [f.name, f.verifiable])).to.deep.equal([
        ['Website', true],
        ['Pronouns', false],
      ]);
      expect(m.pinnedCollection).to.equal(`${ACTOR}/featured`);
      expect([m.indexable, m.discoverable, m.locked]).to.deep.equal([true, true, false]);
      expect(gotosocial.showsProfile(actor).profile?.fields).to.have.length(2);
      expect(misskey.showsProfile(actor, ACTOR).profile?.fields).to.have.length(2);
      expect(akkoma.showsProfile(actor).profile?.header?.url).to.equal(FILE('banner', 'png'));
    });

    it('Mastodon pins the featured collection’s Notes, in order', async () => {
      const featured = await apGet('/users/alice/featured');
      expect(mastodon.pinnedFromFeatured(featured, ACTOR).pinned).to.deep.equal([
        `${BASE}/assets/image`,
        `${BASE}/assets/video`,
      ]);
    });

    it('the delivered Update{Person} is applied by Pixelfed, and is the actor Mastodon takes', async () => {
      const update = await waitForProfileUpdates(1);
      expect(federation.delivered.find((d) => d.document === update)?.inbox).to.equal(SHARED_INBOX);
      expect(await verifyLdSignature(update, publicKeyPem), 'LD-signed by alice').to.equal(true);
      const onPixelfed = pixelfed.acceptsProfileUpdate(update);
      expect(onPixelfed.accepted, onPixelfed.reasons.join()).to.equal(true);
      expect(mastodon.showsProfile(embedded(update), ACTOR).accepted).to.equal(true);
      expect(update.object).to.deep.equal(withoutContext(await apGet('/users/alice')));
    });

    it('known limit: Pixelfed refuses an Update{Person} whose bio is empty, or whose avatar is not a JPEG or PNG', async () => {
      await patchProfile({ bio: null });
      const noBio = await waitForProfileUpdates(2);
      expect(noBio.object).to.not.have.property('summary');
      expect(pixelfed.acceptsProfileUpdate(noBio).reasons).to.deep.equal([
        'object.summary must be a non-empty string (required)',
      ]);
      // The other platforms take it.
      for (const peer of peers) expect(peer.showsProfile(embedded(noBio)).accepted, peer.name).to.equal(true);

      await api.post(
        '/assets',
        { ...assetBody('face-webp'), media_type: 'image/webp', url: FILE('face', 'webp') },
        { token: alice },
      );
      await patchProfile({ bio: 'Back again.', avatar: 'face-webp' });
      const webp = await waitForProfileUpdates(3);
      expect(pixelfed.acceptsProfileUpdate(webp).reasons).to.deep.equal([
        'icon.mediaType image/webp not in image/jpeg,image/png,image/jpg',
      ]);
      for (const peer of peers) expect(peer.showsProfile(embedded(webp)).accepted, peer.name).to.equal(true);
    });
  });
});

function describeShown(shown: Record<Platform, Shown>): string {
  const values = [...new Set(Object.values(shown))];
  if (values.length === 1) return `a ${values[0]} post everywhere`;
  return Object.entries(shown)
    .map(([platform, how]) => `${platform} ${how}`)
    .join(', ');
}

/** The actor an Update carries, read under the Update's context (as a platform processing the Update reads it). */
function embedded(update: Doc): Doc {
  return { '@context': update['@context'], ...update.object };
}

function withoutContext(document: Doc): Doc {
  const { '@context': _context, ...rest } = document;
  return rest;
}
