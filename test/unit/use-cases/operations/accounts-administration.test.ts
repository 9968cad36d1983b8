// What an operator does to one account (`l2 users …`), on the use-case kit: DescribeUser, DisableUser, EnableUser,
// RevokeUserTokens and CreateResetLink.
import { expect } from 'chai';
import { RESET_LINK_LIFETIME_SECONDS } from '../../../../src/domain/account-security.js';
import { useCaseKit } from '../../../support/use-case-kit.js';
import {
  attached,
  isValid,
  loggedIn,
  noticesSent,
  PASSWORD,
  registered,
  type Kit,
} from '../accounts/account-fixtures.js';
import { withPasskey } from '../security/security-fixtures.js';

const logIn = (kit: Kit, username = 'alice') =>
  kit.login.execute({ username, password: PASSWORD, clientAddress: 'a' });

describe('DescribeUser', () => {
  it('counts what the service holds of the account, without its credentials', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    await loggedIn(kit);
    await attached(kit, session, 'https://a.example');
    await attached(kit, session, 'https://b.example');

    const described = await kit.useCases.describeUser.execute('Alice');

    expect(described).to.deep.include({
      activities: 0,
      liveAssets: 0,
      followers: 0,
      sessions: 2,
      scopedTokens: 2,
    });
    expect(described!.l1Servers).to.have.members(['https://a.example', 'https://b.example']);
    expect(described!.profile.username).to.equal('alice');
    expect(described!.profile).to.not.have.property('passwordHash');
    expect(described!.profile).to.not.have.property('privateKeyPem');
    expect(await kit.useCases.describeUser.execute('nobody')).to.equal(null);
  });
});

describe('DisableUser', () => {
  it('stops the account at once: every token revoked (the L1 servers told), no sign-in, its actor unavailable', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const scoped = await attached(kit, session, 'https://l1.example');

    expect(await kit.useCases.disableUser.execute('alice')).to.deep.equal({
      ok: true,
      value: { revoked: 2, already: false },
    });

    expect(await isValid(kit, session)).to.equal(false);
    expect(await isValid(kit, scoped)).to.equal(false);
    expect(await noticesSent(kit)).to.deep.equal([scoped.tokenHash]);
    expect(await logIn(kit)).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    expect(await kit.useCases.getPublicActor.execute('alice')).to.deep.equal({
      ok: false,
      error: { type: 'disabled', username: 'alice' },
    });
    expect(await kit.useCases.disableUser.execute('alice')).to.deep.equal({
      ok: true,
      value: { revoked: 0, already: true },
    });
  });

  it('refuses an unknown or a deleted account', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(await kit.useCases.disableUser.execute('nobody')).to.deep.equal({
      ok: false,
      error: { type: 'not_found' },
    });
    expect(
      (await kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);
    expect(await kit.useCases.disableUser.execute('alice')).to.deep.equal({
      ok: false,
      error: { type: 'deleted' },
    });
  });
});

describe('EnableUser', () => {
  it('gives a disabled account back — sign-in and actor — with its old tokens still revoked', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    await kit.useCases.disableUser.execute('alice');

    expect(await kit.useCases.enableUser.execute('alice')).to.deep.equal({
      ok: true,
      value: { wasDisabled: true },
    });

    expect((await logIn(kit)).ok).to.equal(true);
    expect((await kit.useCases.getPublicActor.execute('alice')).ok).to.equal(true);
    expect(await isValid(kit, session)).to.equal(false);
    expect(await kit.useCases.enableUser.execute('alice')).to.deep.equal({
      ok: true,
      value: { wasDisabled: false },
    });
    expect(await kit.useCases.enableUser.execute('nobody')).to.deep.equal({
      ok: false,
      error: { type: 'not_found' },
    });
  });
});

describe('RevokeUserTokens', () => {
  it('signs the user out everywhere — every session and the tokens they scoped, the L1 servers told — and nobody else', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const other = await loggedIn(kit);
    const scoped = await attached(kit, other, 'https://l1.example');
    const bob = await registered(kit, 'bob');

    expect(await kit.useCases.revokeUserTokens.execute({ username: 'ALICE' })).to.equal(3);

    for (const token of [session, other, scoped]) expect(await isValid(kit, token)).to.equal(false);
    expect(await isValid(kit, bob)).to.equal(true);
    expect(await noticesSent(kit)).to.deep.equal([scoped.tokenHash]);
    // The account itself is untouched: its owner signs in again.
    expect((await logIn(kit)).ok).to.equal(true);
    expect(await kit.useCases.revokeUserTokens.execute({ username: 'nobody' })).to.equal(null);
  });
});

describe('CreateResetLink', () => {
  it('makes a one-hour link for the account, naming its passkeys and whether it is disabled', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const { id } = await withPasskey(kit, session);
    await kit.useCases.disableUser.execute('alice');

    const link = await kit.useCases.createResetLink.execute({ username: 'alice', clearFactors: true });

    if (!link.ok) throw new Error(link.error.type);
    expect(link.value.username).to.equal('alice');
    expect(link.value.token).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(link.value.expiresAt).to.deep.equal(
      new Date(kit.clock.now().getTime() + RESET_LINK_LIFETIME_SECONDS * 1000),
    );
    expect(link.value.disabled).to.equal(true);
    expect(link.value.passkeys.map((p) => ({ id: p.id, name: p.name }))).to.deep.equal([
      { id, name: 'Phone' },
    ]);
    expect(await kit.useCases.checkResetLink.execute(link.value.token)).to.deep.include({ ok: true });
    // The store keeps its hash, which opens nothing: only the secret in the link does.
    const digest = kit.l2.secrets.digest(link.value.token);
    expect((await kit.useCases.checkResetLink.execute(digest)).ok).to.equal(false);
  });

  it('refuses an unknown or a deleted account', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(
      await kit.useCases.createResetLink.execute({ username: 'nobody', clearFactors: false }),
    ).to.deep.equal({
      ok: false,
      error: { type: 'not_found' },
    });
    expect(
      (await kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);
    expect(
      await kit.useCases.createResetLink.execute({ username: 'alice', clearFactors: false }),
    ).to.deep.equal({
      ok: false,
      error: { type: 'deleted' },
    });
  });
});
