import { expect } from 'chai';
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import { MOVE_COOLDOWN_MS } from '../../../../src/domain/account-move.js';
import type { Username } from '../../../../src/domain/user.js';
import { aFollower, anAcceptJob } from '../../../support/builders.js';
import { scriptResolution } from '../../../support/scripted-resolution.js';
import { KIT_ADDRESS, useCaseKit } from '../../../support/use-case-kit.js';
import { attached, PASSWORD, registered, type Kit } from './account-fixtures.js';

const TARGET = 'https://new.example/users/alice';
const ALICE = 'https://l2.example/users/alice';

function kitWithTarget() {
  const kit = useCaseKit();
  const script = scriptResolution(kit.l2.services.actorResolution);
  script.actors.set(TARGET, { id: TARGET, alsoKnownAs: [ALICE] });
  script.actors.set('@alice@new.example', { id: TARGET, alsoKnownAs: [ALICE] });
  script.actors.set('https://plain.example/users/a', { id: 'https://plain.example/users/a' });
  script.actors.set('https://gone.example/users/a', {
    id: 'https://gone.example/users/a',
    alsoKnownAs: [ALICE],
    movedTo: 'https://further.example/users/a',
  });
  return { kit, script };
}

const move = (kit: Kit, session: AuthenticatedToken, target: string | undefined, password = PASSWORD) =>
  kit.useCases.moveAccount.execute({
    session,
    clientAddress: KIT_ADDRESS,
    currentPassword: password,
    target,
  });

const stored = async (kit: Kit) => (await kit.store.users.findProfile('alice' as Username))!;

/** Two followers sharing one inbox and one with its own. */
async function followers(kit: Kit) {
  const shared = aFollower({ username: 'alice' as Username });
  const sameHost = { ...aFollower({ username: 'alice' as Username }), sharedInbox: shared.sharedInbox };
  const other = aFollower({ username: 'alice' as Username, sharedInbox: null });
  for (const follower of [shared, sameHost, other])
    await kit.store.followers.add(follower, anAcceptJob(follower), kit.clock.now());
  while ((await kit.deliver.runOnce()) > 0);
  kit.federation.delivered.length = 0;
  return [shared.sharedInbox!, other.inbox];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Runs every queued job; answers the documents sent, in order, with the inbox each went to. */
async function sent(kit: Kit) {
  while ((await kit.deliver.runOnce()) > 0);
  return kit.federation.delivered.map((d) => ({
    inbox: d.inbox,
    document: d.document as Json,
  }));
}

describe('MoveAccount, GetMoveState, CancelMove (API.md §4.3 "Moving out")', () => {
  it('moves in one write: movedTo stored, an Update and then a Move for every follower server', async () => {
    const { kit } = kitWithTarget();
    const alice = await registered(kit);
    const inboxes = await followers(kit);

    const answer = await move(kit, alice, '@alice@new.example');

    expect(answer).to.deep.equal({
      ok: true,
      value: { movedTo: TARGET, movedAt: kit.clock.now(), followers: 3 },
    });
    const user = await stored(kit);
    expect(user.move).to.deep.include({ movedTo: TARGET, moves: 1 });
    expect(user.profileVersion).to.equal(1);
    const documents = await sent(kit);
    for (const inbox of inboxes) {
      const to = documents.filter((d) => d.inbox === inbox).map((d) => d.document);
      expect(
        to.map((d) => d.type),
        inbox,
      ).to.deep.equal(['Update', 'Move']);
      expect(to[0]!.object.movedTo).to.equal(TARGET);
      expect(to[1]).to.deep.equal({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: `${ALICE}#moves/1`,
        type: 'Move',
        actor: ALICE,
        object: ALICE,
        target: TARGET,
      });
    }
    expect(await kit.useCases.getMoveState.execute(alice)).to.deep.equal({
      ok: true,
      value: { movedTo: TARGET, movedAt: kit.clock.now(), alsoKnownAs: [] },
    });
  });

  it('refuses a scoped token with forbidden, and a wrong password, before anything is looked up', async () => {
    const { kit, script } = kitWithTarget();
    const alice = await registered(kit);
    const scoped = await attached(kit, alice, 'https://l1.example');

    expect(await move(kit, scoped, TARGET)).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
    expect(await move(kit, alice, TARGET, 'wrong password')).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
    expect(await kit.useCases.getMoveState.execute(scoped)).to.deep.equal({
      ok: false,
      error: { type: 'forbidden' },
    });
    expect(script.asked).to.deep.equal([]);
    expect((await stored(kit)).profileVersion).to.equal(0);
  });

  it('refuses a missing or malformed target with the path target, looking nothing up', async () => {
    const { kit, script } = kitWithTarget();
    const alice = await registered(kit);

    for (const target of [undefined, '', 'not an actor', 'ftp://x.example/a']) {
      const answer = await move(kit, alice, target);
      expect(answer.ok || answer.error, String(target)).to.include({
        type: 'invalid_request',
        path: 'target',
      });
    }
    expect(script.asked).to.deep.equal([]);
  });

  it('refuses a target that cannot be read, is this actor, moved itself, or does not list this actor — nothing written or sent', async () => {
    const { kit } = kitWithTarget();
    const alice = await registered(kit);
    await followers(kit);

    for (const target of [
      'https://unknown.example/users/a',
      ALICE,
      'https://gone.example/users/a',
      'https://plain.example/users/a',
    ]) {
      const answer = await move(kit, alice, target);
      expect(answer.ok || answer.error, target).to.include({ type: 'invalid_request', path: 'target' });
    }
    expect((await stored(kit)).profileVersion).to.equal(0);
    expect(await sent(kit)).to.deep.equal([]);
  });

  it('answers lookups_limited when the lookups budget is spent', async () => {
    const { kit, script } = kitWithTarget();
    const alice = await registered(kit);
    script.refusal = { type: 'rate_limited', retryAfterSeconds: 42 };

    expect(await move(kit, alice, TARGET)).to.deep.equal({
      ok: false,
      error: { type: 'lookups_limited', retryAfterSeconds: 42 },
    });
  });

  it('cancels: movedTo gone, an Update without it sent; the cool-down stays until 30 days after the move', async () => {
    const { kit, script } = kitWithTarget();
    const alice = await registered(kit);
    const inboxes = await followers(kit);
    await move(kit, alice, TARGET);
    await sent(kit);
    kit.federation.delivered.length = 0;
    kit.clock.advance(1000);

    const cancelled = await kit.useCases.cancelMove.execute(alice);

    expect(cancelled).to.deep.equal({ ok: true, value: { movedTo: null, movedAt: null, alsoKnownAs: [] } });
    const documents = await sent(kit);
    expect(documents.map((d) => d.inbox).sort()).to.deep.equal([...inboxes].sort());
    for (const { document } of documents) {
      expect(document.type).to.equal('Update');
      expect(document.object).to.not.have.property('movedTo');
    }
    script.asked.length = 0;
    expect(await move(kit, alice, TARGET)).to.deep.equal({
      ok: false,
      error: { type: 'move_cooldown', retryAfterSeconds: MOVE_COOLDOWN_MS / 1000 - 1 },
    });
    expect(script.asked, 'refused before the target is read').to.deep.equal([]);
    kit.clock.advance(MOVE_COOLDOWN_MS);
    expect((await move(kit, alice, TARGET)).ok).to.equal(true);
    expect((await stored(kit)).move.moves).to.equal(2);
  });

  it('cancels nothing when not moved: the state as it is, nothing written or sent', async () => {
    const { kit } = kitWithTarget();
    const alice = await registered(kit);
    await followers(kit);

    expect(await kit.useCases.cancelMove.execute(alice)).to.deep.equal({
      ok: true,
      value: { movedTo: null, movedAt: null, alsoKnownAs: [] },
    });
    expect((await stored(kit)).profileVersion).to.equal(0);
    expect(await sent(kit)).to.deep.equal([]);
  });

  it('refuses asset writes while moved, naming the target, without spending the budget', async () => {
    const { kit } = kitWithTarget();
    const alice = await registered(kit);
    const fields = {
      contentHash: `sha256:${'c'.repeat(64)}`,
      mediaType: 'text/plain',
      url: null,
      description: '',
      altText: null,
      sensitive: false,
      tags: [],
    };
    expect((await kit.registerAsset.execute({ writer: alice.claims, name: 'before', fields })).ok).to.equal(
      true,
    );
    await move(kit, alice, TARGET);

    const refusal = { ok: false, error: { type: 'forbidden', reason: 'moved', movedTo: TARGET } };
    expect(await kit.registerAsset.execute({ writer: alice.claims, name: 'after', fields })).to.deep.equal(
      refusal,
    );
    expect(
      await kit.updateAsset.execute({ writer: alice.claims, name: 'before', changes: { description: 'x' } }),
    ).to.deep.equal(refusal);
    expect(await kit.deleteAsset.execute({ writer: alice.claims, name: 'before' })).to.deep.equal(refusal);

    await kit.useCases.cancelMove.execute(alice);
    expect((await kit.registerAsset.execute({ writer: alice.claims, name: 'after', fields })).ok).to.equal(
      true,
    );
  });
});
