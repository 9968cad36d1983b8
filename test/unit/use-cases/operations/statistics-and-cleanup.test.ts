// What the home page counts, what an operator sees of the queue, and the hourly clean-up, on the use-case kit:
// GetStatistics, GetQueueStatistics, CleanupRevocations and CleanupChallenges.
import { expect } from 'chai';
import { CHALLENGE_LIFETIME_SECONDS } from '../../../../src/domain/account-security.js';
import type { AssetFields } from '../../../../src/domain/asset.js';
import { AUTHORIZATION_CODE_RETENTION_SECONDS } from '../../../../src/domain/oauth.js';
import { TOKEN_LIFETIME_SECONDS } from '../../../../src/domain/token.js';
import { KIT_ADDRESS, useCaseKit } from '../../../support/use-case-kit.js';
import { attached, registered, type Kit } from '../accounts/account-fixtures.js';
import { grantedCode } from '../oauth/oauth-fixtures.js';

const FIELDS: AssetFields = {
  contentHash: `sha256:${'b'.repeat(64)}`,
  mediaType: 'image/png',
  url: null,
  description: 'A picture',
  altText: null,
  sensitive: false,
  tags: [],
};

const DAY_MS = 24 * 60 * 60 * 1000;

describe('GetStatistics', () => {
  it('counts the users, the live assets and the activities (a deleted asset is no longer counted)', async () => {
    const kit = useCaseKit();
    const alice = await registered(kit);
    await registered(kit, 'bob');
    for (const name of ['one', 'two'])
      expect((await kit.registerAsset.execute({ writer: alice.claims, name, fields: FIELDS })).ok).to.equal(
        true,
      );
    expect((await kit.deleteAsset.execute({ writer: alice.claims, name: 'one' })).ok).to.equal(true);

    expect(await kit.useCases.getStatistics.execute()).to.deep.equal({ users: 2, assets: 1, activities: 3 });
  });
});

describe('GetQueueStatistics', () => {
  it('counts the jobs waiting and those given up, by kind, with when the oldest waiting was queued', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    await attached(kit, session, 'https://a.example');
    await attached(kit, session, 'https://b.example');
    expect(await kit.useCases.getQueueStatistics.execute()).to.deep.equal({
      pending: 0,
      abandoned: 0,
      byKind: [],
    });
    const queuedAt = kit.clock.now();
    await kit.logout.execute({ token: session.token, everywhere: false });

    expect(await kit.useCases.getQueueStatistics.execute()).to.deep.equal({
      pending: 2,
      abandoned: 0,
      byKind: [{ kind: 'revocation_notice', pending: 2, abandoned: 0, oldestPendingQueuedAt: queuedAt }],
    });

    kit.notifier.outcomes = [
      { kind: 'refused', reason: 'gone for good' },
      { kind: 'refused', reason: 'gone for good' },
    ];
    while ((await kit.deliver.runOnce()) > 0);
    expect(await kit.useCases.getQueueStatistics.execute()).to.deep.equal({
      pending: 0,
      abandoned: 2,
      byKind: [{ kind: 'revocation_notice', pending: 0, abandoned: 2, oldestPendingQueuedAt: null }],
    });
  });
});

/** alice logged out (a revocation), and an authorization code she allowed and nobody exchanged. */
async function somethingToForget(kit: Kit): Promise<void> {
  const session = await registered(kit);
  await grantedCode(kit, session);
  await kit.logout.execute({ token: session.token, everywhere: false });
}

describe('CleanupRevocations', () => {
  it('keeps every record while its token could still be presented, then forgets them', async () => {
    const kit = useCaseKit();
    await somethingToForget(kit);
    expect(await kit.useCases.cleanupRevocations.execute()).to.deep.equal({
      revocations: 0,
      issuedTokens: 0,
      authorizationCodes: 0,
    });

    kit.clock.advance(TOKEN_LIFETIME_SECONDS * 1000 + 5 * 60 * 1000 + 1000);
    expect(await kit.useCases.cleanupRevocations.execute()).to.deep.equal({
      revocations: 1,
      issuedTokens: 1,
      authorizationCodes: 1,
    });
    expect(await kit.useCases.cleanupRevocations.execute()).to.deep.equal({
      revocations: 0,
      issuedTokens: 0,
      authorizationCodes: 0,
    });
  });

  it("keeps revocations and issued tokens 5 minutes past their expiry: another instance's clock may run behind", async () => {
    const kit = useCaseKit();
    await somethingToForget(kit);
    kit.clock.advance(TOKEN_LIFETIME_SECONDS * 1000 + 4 * 60 * 1000);
    const early = await kit.useCases.cleanupRevocations.execute();
    expect([early.revocations, early.issuedTokens]).to.deep.equal([0, 0]);

    kit.clock.advance(2 * 60 * 1000);
    const late = await kit.useCases.cleanupRevocations.execute();
    expect([late.revocations, late.issuedTokens]).to.deep.equal([1, 1]);
  });

  it('keeps an authorization code a day past its expiry, to recognise it replayed late', async () => {
    const kit = useCaseKit();
    await grantedCode(kit, await registered(kit));
    kit.clock.advance(AUTHORIZATION_CODE_RETENTION_SECONDS * 1000 - DAY_MS / 2);
    expect((await kit.useCases.cleanupRevocations.execute()).authorizationCodes).to.equal(0);
    kit.clock.advance(DAY_MS);
    expect((await kit.useCases.cleanupRevocations.execute()).authorizationCodes).to.equal(1);
  });
});

describe('CleanupChallenges', () => {
  it('forgets the challenges nobody used once they expired, and only those', async () => {
    const kit = useCaseKit();
    await registered(kit);
    for (let i = 0; i < 2; i++)
      expect((await kit.useCases.startPasskeySignIn.execute(KIT_ADDRESS)).ok).to.equal(true);
    expect(await kit.useCases.cleanupChallenges.execute()).to.equal(0);

    kit.clock.advance(CHALLENGE_LIFETIME_SECONDS * 1000);
    const link = await kit.useCases.createResetLink.execute({ username: 'alice', clearFactors: false });
    if (!link.ok) throw new Error(link.error.type);
    kit.clock.advance(1000);

    expect(await kit.useCases.cleanupChallenges.execute()).to.equal(2);
    expect((await kit.useCases.checkResetLink.execute(link.value.token)).ok).to.equal(true);
  });
});
