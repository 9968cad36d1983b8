import { expect } from 'chai';
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import type { AssetFields } from '../../../../src/domain/asset.js';
import type { ProfileChanges } from '../../../../src/domain/profile.js';
import type { Username } from '../../../../src/domain/user.js';
import { aFollower, anAcceptJob } from '../../../support/builders.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { attached, type Kit, registered } from './account-fixtures.js';

const picture = (url: string | null, mediaType = 'image/png'): AssetFields => ({
  contentHash: `sha256:${'c'.repeat(64)}`,
  mediaType,
  url,
  description: 'a picture',
  altText: 'A red sky over the sea',
  sensitive: false,
  tags: [],
});

async function asset(kit: Kit, owner: AuthenticatedToken, name: string, fields: AssetFields) {
  const made = await kit.registerAsset.execute({ writer: owner.claims, name, fields });
  if (!made.ok) throw new Error(`asset ${name}: ${made.error.type}`);
}

const change = (kit: Kit, writer: AuthenticatedToken, changes: ProfileChanges, username = 'alice') =>
  kit.updateProfile.execute({ writer: writer.claims, username, changes });

const stored = async (kit: Kit, username = 'alice') =>
  (await kit.store.users.findProfile(username as Username))!;

/** Two followers on one host (one shared inbox) and one on another. */
async function followers(kit: Kit) {
  const shared = aFollower({ username: 'alice' as Username });
  const sameHost = { ...aFollower({ username: 'alice' as Username }), sharedInbox: shared.sharedInbox };
  const other = aFollower({ username: 'alice' as Username, sharedInbox: null });
  for (const follower of [shared, sameHost, other])
    await kit.store.followers.add(follower, anAcceptJob(follower), kit.clock.now());
  while ((await kit.deliver.runOnce()) > 0); // the Accepts
  kit.federation.delivered.length = 0;
  return [shared.sharedInbox!, other.inbox];
}

type SentUpdate = {
  id: string;
  type: string;
  object: { type: string; name?: string; summary?: string; icon?: { url: string } };
};

/** Runs every queued job and answers the Update{Person} documents sent, by inbox. */
async function updatesSent(kit: Kit) {
  while ((await kit.deliver.runOnce()) > 0);
  return kit.federation.delivered
    .map((d) => ({ inbox: d.inbox, document: d.document as SentUpdate }))
    .filter(({ document }) => document.type === 'Update' && document.object.type === 'Person');
}

describe('UpdateProfile', () => {
  it('sets the fields given, keeps the others, and sends one Update of the whole actor per follower inbox', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    const inboxes = await followers(kit);
    await change(kit, alice, { bio: 'First bio' });
    await updatesSent(kit);
    kit.federation.delivered.length = 0;

    const changed = await change(kit, alice, {
      displayName: '  Alice A.  ',
      fields: [{ name: 'Site', value: 'https://alice.example' }],
    });

    expect(changed.ok).to.equal(true);
    const after = await stored(kit);
    expect(after.profile.displayName).to.equal('Alice A.');
    expect(after.profile.bio).to.equal('First bio');
    expect(after.profile.fields).to.deep.equal([{ name: 'Site', value: 'https://alice.example' }]);
    expect(after.profileVersion).to.equal(2);
    const sent = await updatesSent(kit);
    expect(sent.map((s) => s.inbox).sort()).to.deep.equal([...inboxes].sort());
    for (const { document } of sent) {
      expect(document.id).to.equal(`${kit.urls.actor('alice')}#updates/2`);
      expect(document.object.name).to.equal('Alice A.');
      expect(document.object.summary).to.equal('<p>First bio</p>');
    }
  });

  it('writes nothing and sends nothing when the change leaves the profile as it was', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    await followers(kit);

    expect((await change(kit, alice, { displayName: '   ', indexable: false })).ok).to.equal(true);

    expect((await stored(kit)).profileVersion).to.equal(0);
    expect(await updatesSent(kit)).to.deep.equal([]);
  });

  it("refuses another user's profile, a token scoped to an L1 server, and an account that is gone", async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    const bob = await registered(kit, 'bob');
    const scoped = await attached(kit, alice, 'https://l1.example');

    expect(await change(kit, bob, { bio: 'mine now' })).to.deep.equal({
      ok: false,
      error: { type: 'forbidden', reason: 'not_yours' },
    });
    expect(await change(kit, scoped, { bio: 'from an L1' })).to.deep.equal({
      ok: false,
      error: { type: 'forbidden', reason: 'scoped_token' },
    });
    expect(await change(kit, alice, { bio: 'x' }, 'nobody')).to.deep.equal({
      ok: false,
      error: { type: 'not_found' },
    });
    expect((await stored(kit)).profile.bio).to.equal(null);
  });

  it("takes as avatar, header and pins only the user's own live assets, pictures with an https URL for the pictures", async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    const bob = await registered(kit, 'bob');
    await asset(kit, alice, 'face', picture('https://cdn.example/face.png'));
    await asset(kit, alice, 'plain-http', picture('http://cdn.example/face.png'));
    await asset(kit, alice, 'no-url', picture(null));
    await asset(kit, alice, 'song', picture('https://cdn.example/song.mp3', 'audio/mpeg'));
    await asset(kit, bob, 'bobs-face', picture('https://cdn.example/bob.png'));

    for (const name of ['plain-http', 'no-url', 'song', 'bobs-face', 'missing']) {
      const refused = await change(kit, alice, { avatar: name });
      expect(refused.ok, name).to.equal(false);
      if (!refused.ok) expect(refused.error).to.include({ type: 'invalid_request', path: 'avatar' });
    }
    const pinOther = await change(kit, alice, { pinned: ['face', 'bobs-face'] });
    expect(!pinOther.ok && pinOther.error).to.include({ type: 'invalid_request', path: 'pinned' });
    const tooMany = await change(kit, alice, { pinned: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect(!tooMany.ok && tooMany.error).to.include({ type: 'invalid_request', path: 'pinned' });
    expect((await stored(kit)).profileVersion).to.equal(0);

    const accepted = await change(kit, alice, { avatar: 'face', header: 'face', pinned: ['song', 'face'] });
    expect(accepted.ok).to.equal(true);
    expect((await stored(kit)).profile).to.include({ avatar: 'face', header: 'face' });
    expect((await stored(kit)).profile.pinned).to.deep.equal(['song', 'face']);
  });

  it('drops a deleted avatar and pin from the profile in the same write, and tells the followers', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    await asset(kit, alice, 'face', picture('https://cdn.example/face.png'));
    await asset(kit, alice, 'song', picture('https://cdn.example/song.mp3', 'audio/mpeg'));
    expect((await change(kit, alice, { avatar: 'face', pinned: ['face', 'song'] })).ok).to.equal(true);
    const inboxes = await followers(kit);

    expect((await kit.deleteAsset.execute({ writer: alice.claims, name: 'face' })).ok).to.equal(true);

    const after = await stored(kit);
    expect(after.profile.avatar).to.equal(null);
    expect(after.profile.pinned).to.deep.equal(['song']);
    const sent = await updatesSent(kit);
    expect(sent.map((s) => s.inbox).sort()).to.deep.equal([...inboxes].sort());
    expect(sent[0]!.document.object).to.not.have.property('icon');
  });

  it('sends an Update when a picture the actor shows changes, though the profile names the same asset', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    await asset(kit, alice, 'face', picture('https://cdn.example/face.png'));
    expect((await change(kit, alice, { avatar: 'face' })).ok).to.equal(true);
    await followers(kit);

    const moved = await kit.updateAsset.execute({
      writer: alice.claims,
      name: 'face',
      changes: { url: 'https://cdn.example/face-2.png' },
    });

    expect(moved.ok).to.equal(true);
    const sent = await updatesSent(kit);
    expect(sent).to.have.length(2);
    expect(sent[0]!.document.object.icon).to.deep.include({ url: 'https://cdn.example/face-2.png' });
  });

  it('applies two changes made at once by two sessions, each on top of the other', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);

    const [a, b] = await Promise.all([
      change(kit, alice, { displayName: 'Alice' }),
      change(kit, alice, { bio: 'Paints skies' }),
    ]);

    expect(a.ok && b.ok).to.equal(true);
    const after = await stored(kit);
    expect(after.profile).to.include({ displayName: 'Alice', bio: 'Paints skies' });
    expect(after.profileVersion).to.equal(2);
  });

  it('answers rate_limited once the write budget is spent, and writes nothing', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    let answer = await change(kit, alice, { bio: 'bio 0' });
    for (let i = 1; answer.ok && i < 2000; i++) answer = await change(kit, alice, { bio: `bio ${i}` });

    expect(answer.ok).to.equal(false);
    if (!answer.ok) expect(answer.error.type).to.equal('rate_limited');
    const before = await stored(kit);
    expect(await change(kit, alice, { bio: 'one more' })).to.have.nested.property(
      'error.type',
      'rate_limited',
    );
    expect((await stored(kit)).profileVersion).to.equal(before.profileVersion);
  });
});
