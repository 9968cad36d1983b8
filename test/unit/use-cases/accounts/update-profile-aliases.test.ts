import { expect } from 'chai';
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import type { Username } from '../../../../src/domain/user.js';
import { scriptResolution } from '../../../support/scripted-resolution.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import { registered, type Kit } from './account-fixtures.js';

const BOB_THERE = 'https://social.example/users/bob';
const BOB_ELSEWHERE = 'https://other.example/users/bob';

function kitWithPeers() {
  const kit = useCaseKit();
  const script = scriptResolution(kit.l2.services.actorResolution);
  script.actors.set(BOB_THERE, { id: BOB_THERE });
  script.actors.set('@bob@other.example', { id: BOB_ELSEWHERE });
  return { kit, script };
}

const aliases = (kit: Kit, writer: AuthenticatedToken, alsoKnownAs: readonly string[] | string | null) =>
  kit.updateProfile.execute({ writer: writer.claims, username: 'alice', changes: {}, alsoKnownAs });

const stored = async (kit: Kit) => (await kit.store.users.findProfile('alice' as Username))!;

describe('UpdateProfile: also_known_as (API.md §4.3 "Moving in")', () => {
  it('resolves each entry — a URL, a handle — and stores the actor ids, in the order given', async () => {
    const { kit, script } = kitWithPeers();
    const alice = await registered(kit);

    const answer = await aliases(kit, alice, [BOB_THERE, '@bob@other.example']);

    expect(answer.ok).to.equal(true);
    expect((await stored(kit)).profile.alsoKnownAs).to.deep.equal([BOB_THERE, BOB_ELSEWHERE]);
    expect(script.asked).to.deep.equal([BOB_THERE, '@bob@other.example']);
  });

  it('takes the form one entry per line, and keeps stored ids without fetching them again', async () => {
    const { kit, script } = kitWithPeers();
    const alice = await registered(kit);
    await aliases(kit, alice, `${BOB_THERE}\r\n\r\n`);
    script.asked.length = 0;

    const answer = await aliases(kit, alice, `${BOB_THERE}\n@bob@other.example\n`);

    expect(answer.ok).to.equal(true);
    expect(script.asked).to.deep.equal(['@bob@other.example']);
    expect((await stored(kit)).profile.alsoKnownAs).to.deep.equal([BOB_THERE, BOB_ELSEWHERE]);
  });

  it('collapses a URL and a handle of the same actor into one entry', async () => {
    const { kit, script } = kitWithPeers();
    script.actors.set('@bob@social.example', { id: BOB_THERE });
    const alice = await registered(kit);

    await aliases(kit, alice, [BOB_THERE, '@bob@social.example']);

    expect((await stored(kit)).profile.alsoKnownAs).to.deep.equal([BOB_THERE]);
  });

  it('clears with null and with an empty list', async () => {
    const { kit } = kitWithPeers();
    const alice = await registered(kit);
    for (const clear of [null, [] as string[], '']) {
      await aliases(kit, alice, [BOB_THERE]);
      expect((await aliases(kit, alice, clear)).ok).to.equal(true);
      expect((await stored(kit)).profile.alsoKnownAs).to.deep.equal([]);
    }
  });

  it('refuses a sixth entry before fetching anything, and writes nothing', async () => {
    const { kit, script } = kitWithPeers();
    const alice = await registered(kit);
    const six = Array.from({ length: 6 }, (_, i) => `https://h${i}.example/users/a`);

    const answer = await aliases(kit, alice, six);

    expect(answer).to.deep.include({ ok: false });
    expect(answer.ok || answer.error).to.include({ type: 'invalid_request', path: 'also_known_as' });
    expect(script.asked).to.deep.equal([]);
    expect((await stored(kit)).profileVersion).to.equal(0);
  });

  it("refuses the user's own actor, by URL or by a name resolving to it", async () => {
    const { kit, script } = kitWithPeers();
    const alice = await registered(kit);
    script.actors.set('@alice@l2.example', { id: kit.urls.actor('alice'), local: 'alice' as Username });

    for (const own of [kit.urls.actor('alice'), '@alice@l2.example']) {
      const answer = await aliases(kit, alice, [BOB_THERE, own]);
      expect(answer.ok || answer.error, own).to.include({ type: 'invalid_request', path: 'also_known_as' });
    }
    expect((await stored(kit)).profile.alsoKnownAs).to.deep.equal([]);
  });

  it('refuses an entry that does not resolve or is malformed with the path also_known_as, and writes nothing', async () => {
    const { kit } = kitWithPeers();
    const alice = await registered(kit);

    for (const bad of [['https://gone.example/users/x'], ['not a name'], 'ftp://x.example/a']) {
      const answer = await aliases(kit, alice, bad);
      expect(answer.ok || answer.error, String(bad)).to.include({
        type: 'invalid_request',
        path: 'also_known_as',
      });
    }
    expect((await stored(kit)).profileVersion).to.equal(0);
  });

  it('answers rate_limited when the lookups budget is spent, and writes nothing', async () => {
    const { kit, script } = kitWithPeers();
    const alice = await registered(kit);
    script.refusal = { type: 'rate_limited', retryAfterSeconds: 60 };

    const answer = await aliases(kit, alice, [BOB_THERE]);

    expect(answer.ok || answer.error).to.deep.equal({ type: 'rate_limited', retryAfterSeconds: 60 });
    expect((await stored(kit)).profileVersion).to.equal(0);
  });

  it('judges the other fields first: a refused display name fetches nothing', async () => {
    const { kit, script } = kitWithPeers();
    const alice = await registered(kit);

    const answer = await kit.updateProfile.execute({
      writer: alice.claims,
      username: 'alice',
      changes: { displayName: 'x'.repeat(101) },
      alsoKnownAs: [BOB_THERE],
    });

    expect(answer.ok || answer.error).to.include({ type: 'invalid_request', path: 'display_name' });
    expect(script.asked).to.deep.equal([]);
  });
});
