import { expect } from 'chai';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { openMemoryPersistence } from '../../../../src/adapters/persistence/memory/open-memory-persistence.js';
import { RateLimiterBudget } from '../../../../src/adapters/throttle/rate-limiter-budget.js';
import type { ActivitySigner } from '../../../../src/application/ports/activity-signer.js';
import { DeleteAsset } from '../../../../src/application/use-cases/registry/delete-asset.js';
import { PublishActivity } from '../../../../src/application/services/publish-activity.js';
import { AssetWrites } from '../../../../src/application/services/asset-writes.js';
import { RegisterAsset } from '../../../../src/application/use-cases/registry/register-asset.js';
import { GetEditableAsset } from '../../../../src/application/use-cases/registry/get-editable-asset.js';
import { UpdateAsset } from '../../../../src/application/use-cases/registry/update-asset.js';
import { Urls } from '../../../../src/domain/activity-streams.js';
import type { AssetFields } from '../../../../src/domain/asset.js';
import type { TokenClaims } from '../../../../src/domain/token.js';
import { anL1Server, aUser, aUsername } from '../../../support/builders.js';
import { FixedClock } from '../../../support/fixed-clock.js';
import { testTransparencyLog } from '../../../support/tlog-test-key.js';

const fields: AssetFields = {
  contentHash: `sha256:${'a'.repeat(64)}`,
  mediaType: 'image/png',
  url: null,
  description: 'Red sky',
  altText: null,
  sensitive: false,
  tags: [],
};

const signer: ActivitySigner = { sign: async (document) => document };

async function setUp(writesPerWindow = 100) {
  const store = openMemoryPersistence();
  const clock = new FixedClock(new Date('2026-11-22T10:00:00.000Z'));
  const publish = new PublishActivity(
    store.activities,
    store.users,
    signer,
    clock,
    Urls.of('https://l2.example'),
    {
      jobsQueued: () => {},
    },
    testTransparencyLog(store.transparencyLog),
  );
  const writes = new RateLimiterBudget(
    new RateLimiterMemory({ keyPrefix: 'w', points: writesPerWindow, duration: 60 }),
  );
  const alice = aUser({ username: aUsername('alice') });
  await store.users.create(alice);
  const session: TokenClaims = {
    sub: alice.username,
    username: alice.username,
    l2_server: 'https://l2.example',
    iss: 'https://l2.example',
    iat: 1,
    exp: 2,
    jti: 'session',
  };
  const scoped: TokenClaims = {
    ...session,
    jti: 'scoped',
    sid: 'session',
    l1_server: anL1Server('https://l1.example'),
  };
  const writing = new AssetWrites(store.assets, store.users, publish, writes);
  return {
    store,
    session,
    scoped,
    register: new RegisterAsset(writing),
    update: new UpdateAsset(writing),
    remove: new DeleteAsset(writing),
  };
}

describe('asset writes: who may write, and how often', () => {
  it('refuses a token scoped to an L1 server for every write, writing nothing', async () => {
    const { store, session, scoped, register, update, remove } = await setUp();
    expect((await register.execute({ writer: session, name: 'sunset', fields })).ok).to.equal(true);
    const refusal = { ok: false, error: { type: 'forbidden', reason: 'scoped_token' } };

    expect(await register.execute({ writer: scoped, name: 'moonrise', fields })).to.deep.equal(refusal);
    expect(
      await update.execute({ writer: scoped, name: 'sunset', changes: { description: 'x' } }),
    ).to.deep.equal(refusal);
    expect(
      await new GetEditableAsset(store.assets).execute({ writer: scoped, name: 'sunset' }),
    ).to.deep.equal(refusal);
    expect(await remove.execute({ writer: scoped, name: 'sunset' })).to.deep.equal(refusal);

    expect(await store.activities.nextIdx()).to.equal(1);
    expect((await store.assets.findByName('sunset' as never))?.description).to.equal('Red sky');
  });

  it("spends one of the writer's budget per write (an edit once, however often it is applied) and refuses the next", async () => {
    const { store, session, register, update, remove } = await setUp(3);
    expect((await register.execute({ writer: session, name: 'sunset', fields })).ok).to.equal(true);
    expect(
      (await update.execute({ writer: session, name: 'sunset', changes: { description: 'x' } })).ok,
    ).to.equal(true);
    expect((await remove.execute({ writer: session, name: 'sunset' })).ok).to.equal(true);

    const limited = await register.execute({ writer: session, name: 'moonrise', fields });
    expect(limited.ok).to.equal(false);
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    expect(await store.activities.nextIdx()).to.equal(3);
  });

  it('refuses every write for a deleted account, even through a request signed in before the deletion', async () => {
    const { store, session, register } = await setUp();
    await store.accountRemoval.remove(
      { username: session.username, revocations: [], assetDeletes: [], actorDelete: {} },
      new Date('2026-11-22T10:00:00.000Z'),
    );
    expect(await register.execute({ writer: session, name: 'late', fields })).to.deep.equal({
      ok: false,
      error: { type: 'forbidden', reason: 'not_owner' },
    });
    expect(await store.activities.nextIdx()).to.equal(0);
  });

  it('refuses every write for a disabled account, even through a request signed in before the disabling', async () => {
    const { store, session, register, update, remove } = await setUp();
    expect((await register.execute({ writer: session, name: 'sunset', fields })).ok).to.equal(true);
    await store.users.disable(session.username, [], new Date('2026-11-22T10:00:00.000Z'));

    const refused = { ok: false, error: { type: 'forbidden', reason: 'not_owner' } };
    expect(await register.execute({ writer: session, name: 'late', fields })).to.deep.equal(refused);
    expect(
      await update.execute({ writer: session, name: 'sunset', changes: { description: 'x' } }),
    ).to.deep.equal(refused);
    expect(await remove.execute({ writer: session, name: 'sunset' })).to.deep.equal(refused);
    expect(await store.activities.nextIdx()).to.equal(1);
  });
});
