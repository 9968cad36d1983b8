import { expect } from 'chai';
import type { AuthenticatedToken } from '../../../../src/application/services/authenticate-token.js';
import type { AssetFields } from '../../../../src/domain/asset.js';
import { documentDeliveryJob } from '../../../../src/domain/jobs.js';
import { anAssetName } from '../../../support/builders.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import {
  attached,
  expectNothingQueued,
  isValid,
  type Kit,
  loggedIn,
  noticesSent,
  PASSWORD,
  registered,
} from './account-fixtures.js';

const fields = (n: number): AssetFields => ({
  contentHash: `sha256:${n.toString(16).padStart(64, '0')}`,
  mediaType: 'image/png',
  url: null,
  description: `asset ${n}`,
  altText: null,
  sensitive: false,
  tags: [],
});

async function withAsset(kit: Kit, session: AuthenticatedToken, name: string, n: number): Promise<void> {
  const result = await kit.registerAsset.execute({ writer: session.claims, name, fields: fields(n) });
  if (!result.ok) throw new Error(`register failed: ${result.error.type}`);
}

/**
 * alice with two sessions, a scoped token, and assets `a1`, `a2`, `a3` (a2 deleted by her, so the log holds
 * Create a1, Create a2, Create a3, Delete a2 at idx 0–3), and bob with a session and asset `b1` at idx 4.
 */
async function aliceAndBob(kit: Kit) {
  const asking = await registered(kit);
  const other = await loggedIn(kit);
  const scoped = await attached(kit, other, 'https://a.example');
  await withAsset(kit, asking, 'a1', 1);
  await withAsset(kit, asking, 'a2', 2);
  await withAsset(kit, asking, 'a3', 3);
  const deleted = await kit.deleteAsset.execute({ writer: asking.claims, name: 'a2' });
  if (!deleted.ok) throw new Error('asset delete failed');
  const bob = await registered(kit, 'bob');
  await withAsset(kit, bob, 'b1', 4);
  return { asking, other, scoped, bob };
}

const liveAssetsOf = async (kit: Kit, owner: string) =>
  (await kit.store.assets.listOlder({ owner: owner as never }, null, 100)).map((entry) => entry.value.name);

describe('DeleteAccount', () => {
  it('marks the user deleted, revokes every token and deletes every live asset with a Delete at the next idx', async () => {
    const kit = useCaseKit();
    const { asking, other, scoped, bob } = await aliceAndBob(kit);
    expect(await kit.store.activities.nextIdx()).to.equal(5);

    const result = await kit.deleteAccount.execute({
      session: asking,
      password: PASSWORD,
      clientAddress: 'a',
    });
    expect(result).to.deep.equal({ ok: true, value: { revoked: 3, assets: 2 } });

    expect((await kit.store.users.findByUsername(asking.claims.username))?.deletedAt).to.deep.equal(
      kit.clock.now(),
    );
    expect(await kit.store.users.count()).to.equal(1);
    for (const token of [asking, other, scoped]) expect(await isValid(kit, token)).to.equal(false);
    expect(await noticesSent(kit)).to.deep.equal([scoped.tokenHash]);

    expect(await liveAssetsOf(kit, 'alice')).to.deep.equal([]);
    expect(await kit.store.activities.nextIdx()).to.equal(7);
    const deletes = [await kit.store.activities.get(5), await kit.store.activities.get(6)];
    expect(deletes.map((a) => [a?.type, a?.actor, a?.object])).to.have.deep.members([
      ['Delete', 'alice', 'a1'],
      ['Delete', 'alice', 'a3'],
    ]);
    expect(deletes.map((a) => a?.document.id)).to.deep.equal([kit.urls.activity(5), kit.urls.activity(6)]);
    for (const name of ['a1', 'a3']) {
      expect((await kit.store.assets.findByName(anAssetName(name)))?.deletedAt).to.not.equal(null);
    }

    // bob and his asset are untouched.
    expect(await isValid(kit, bob)).to.equal(true);
    expect(await liveAssetsOf(kit, 'bob')).to.deep.equal(['b1']);
  });

  it('refuses every later login, with the right password too', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(
      (await kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);

    const login = await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' });
    expect(login).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
  });

  it("sends the asset Deletes and then the actor's Delete to the followers' inbox", async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const inbox = 'https://remote.example/inbox';
    await kit.store.followers.add(
      {
        username: session.claims.username,
        actor: 'https://remote.example/users/carol',
        inbox,
        sharedInbox: null,
        followId: null,
        followedAt: kit.clock.now(),
      },
      documentDeliveryJob({ signer: session.claims.username, inbox, document: { type: 'Accept' } }),
      kit.clock.now(),
    );
    await withAsset(kit, session, 'a1', 1);
    while ((await kit.deliver.runOnce()) > 0);
    kit.federation.delivered.length = 0;

    await kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: 'a' });
    while ((await kit.deliver.runOnce()) > 0);

    const actor = kit.urls.actor('alice' as never);
    expect(kit.federation.delivered.map((d) => [d.inbox, d.document.type, d.document.id])).to.deep.equal([
      [inbox, 'Delete', kit.urls.activity(1)],
      [inbox, 'Delete', `${actor}#delete`],
    ]);
  });

  it('builds the Deletes again when another asset is registered while the removal is prepared', async () => {
    const kit = useCaseKit();
    const { asking } = await aliceAndBob(kit);
    const remove = kit.store.accountRemoval.remove.bind(kit.store.accountRemoval);
    const outcomes: string[] = [];
    kit.store.accountRemoval.remove = async (plan, now) => {
      // The first plan was built before a4 existed: its Deletes sit at a taken idx and miss a4.
      if (outcomes.length === 0) await withAsset(kit, asking, 'a4', 5);
      const outcome = await remove(plan, now);
      outcomes.push(outcome);
      return outcome;
    };

    const result = await kit.deleteAccount.execute({
      session: asking,
      password: PASSWORD,
      clientAddress: 'a',
    });
    expect(result).to.deep.equal({ ok: true, value: { revoked: 3, assets: 3 } });
    expect(outcomes).to.deep.equal(['idx_taken', 'removed']);
    expect(await liveAssetsOf(kit, 'alice')).to.deep.equal([]);
    const deletes = await Promise.all([6, 7, 8].map((idx) => kit.store.activities.get(idx)));
    expect(deletes.map((a) => a?.object)).to.have.members(['a1', 'a3', 'a4']);
    expect(deletes.every((a) => a?.type === 'Delete')).to.equal(true);
    expect(await kit.store.activities.nextIdx()).to.equal(9);
  });

  it('answers invalid_credentials for a wrong password, changing nothing', async () => {
    const kit = useCaseKit();
    const { asking, other, scoped } = await aliceAndBob(kit);

    const result = await kit.deleteAccount.execute({
      session: asking,
      password: 'wrong horse',
      clientAddress: 'a',
    });
    expect(result).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    expect((await kit.store.users.findByUsername(asking.claims.username))?.deletedAt).to.equal(null);
    for (const token of [asking, other, scoped]) expect(await isValid(kit, token)).to.equal(true);
    expect(await liveAssetsOf(kit, 'alice')).to.have.members(['a1', 'a3']);
    expect(await kit.store.activities.nextIdx()).to.equal(5);
    await expectNothingQueued(kit);
  });

  it('refuses a scoped token, changing nothing', async () => {
    const kit = useCaseKit();
    const { asking, other, scoped } = await aliceAndBob(kit);

    const result = await kit.deleteAccount.execute({
      session: scoped,
      password: PASSWORD,
      clientAddress: 'a',
    });
    expect(result).to.deep.equal({ ok: false, error: { type: 'forbidden' } });
    expect((await kit.store.users.findByUsername(asking.claims.username))?.deletedAt).to.equal(null);
    for (const token of [asking, other, scoped]) expect(await isValid(kit, token)).to.equal(true);
    expect(await liveAssetsOf(kit, 'alice')).to.have.members(['a1', 'a3']);
    expect(await kit.store.activities.nextIdx()).to.equal(5);
    await expectNothingQueued(kit);
  });

  it('answers invalid_credentials when asked again through a session of the deleted account', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    await kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: 'a' });
    const again = await kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: 'a' });
    expect(again).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
  });
});
