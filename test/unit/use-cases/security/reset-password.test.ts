// An operator's reset link (made by CreateResetLink) opened by CheckResetLink and used by ResetPassword, on the
// use-case kit.
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
import { HISTORY_ADDRESS, passkeyAnswer, withPasskey, withSecondFactor } from './security-fixtures.js';

const NEW_PASSWORD = 'battery staple';

async function resetLink(kit: Kit, clearFactors = false): Promise<string> {
  const link = await kit.useCases.createResetLink.execute({ username: 'alice', clearFactors });
  if (!link.ok) throw new Error(link.error.type);
  return link.value.token;
}

const reset = (kit: Kit, token: string, newPassword = NEW_PASSWORD) =>
  kit.useCases.resetPassword.execute({ token, newPassword, address: HISTORY_ADDRESS, clientAddress: 'a' });

const logIn = (kit: Kit, password: string) =>
  kit.login.execute({ username: 'alice', password, clientAddress: 'a' });

describe('CheckResetLink', () => {
  it('opens the link while it can be used: whose account, until when, and whether it clears the factors', async () => {
    const kit = useCaseKit();
    await registered(kit);
    const token = await resetLink(kit, true);
    expect(await kit.useCases.checkResetLink.execute(token)).to.deep.equal({
      ok: true,
      value: {
        username: 'alice',
        expiresAt: new Date(kit.clock.now().getTime() + RESET_LINK_LIFETIME_SECONDS * 1000),
        clearFactors: true,
      },
    });
  });

  it('answers challenge_expired for a link unknown, replaced by a newer one, expired or used', async () => {
    const kit = useCaseKit();
    await registered(kit);
    const expired = { ok: false, error: { type: 'challenge_expired' } };
    expect(await kit.useCases.checkResetLink.execute('no-such-link')).to.deep.equal(expired);

    const replaced = await resetLink(kit);
    const newer = await resetLink(kit);
    expect(await kit.useCases.checkResetLink.execute(replaced)).to.deep.equal(expired);
    expect((await kit.useCases.checkResetLink.execute(newer)).ok).to.equal(true);

    expect((await reset(kit, newer)).ok).to.equal(true);
    expect(await kit.useCases.checkResetLink.execute(newer)).to.deep.equal(expired);

    const late = await resetLink(kit);
    kit.clock.advance(RESET_LINK_LIFETIME_SECONDS * 1000);
    expect(await kit.useCases.checkResetLink.execute(late)).to.deep.equal(expired);
  });
});

describe('ResetPassword', () => {
  it('sets the new password and revokes every token of the account, the L1 servers told', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const other = await loggedIn(kit);
    const scoped = await attached(kit, other, 'https://l1.example');
    const token = await resetLink(kit);

    expect(await reset(kit, token)).to.deep.equal({ ok: true, value: { username: 'alice', revoked: 3 } });

    for (const revoked of [session, other, scoped]) expect(await isValid(kit, revoked)).to.equal(false);
    expect(await noticesSent(kit)).to.deep.equal([scoped.tokenHash]);
    expect((await logIn(kit, PASSWORD)).ok).to.equal(false);
    expect((await logIn(kit, NEW_PASSWORD)).ok).to.equal(true);
    expect(await reset(kit, token)).to.deep.equal({ ok: false, error: { type: 'challenge_expired' } });
  });

  it('forgets the username’s failed logins: its owner signs in at once', async () => {
    const kit = useCaseKit();
    await registered(kit);
    const token = await resetLink(kit);
    for (let i = 0; i < 3; i++) await logIn(kit, 'wrong horse');
    expect((await logIn(kit, PASSWORD)).ok).to.equal(false);

    expect((await reset(kit, token)).ok).to.equal(true);
    expect((await logIn(kit, NEW_PASSWORD)).ok).to.equal(true);
  });

  it('with clearFactors removes the second factor and the passkeys too, and the history says both', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    await withSecondFactor(kit, session);
    const { phone } = await withPasskey(kit, session);
    const token = await resetLink(kit, true);

    expect((await reset(kit, token)).ok).to.equal(true);

    const signedIn = await logIn(kit, NEW_PASSWORD);
    if (!signedIn.ok) throw new Error(signedIn.error.type);
    expect(signedIn.value.claims.amr).to.deep.equal(['pwd']);
    expect(await kit.useCases.signInWithPasskey.execute(await passkeyAnswer(kit, phone))).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
    const fresh = await kit.authenticate.authenticate(signedIn.value.token);
    if (!fresh.ok) throw new Error(fresh.error.type);
    const view = await kit.useCases.getAccountSecurity.execute(fresh.value);
    if (!view.ok) throw new Error(view.error.type);
    expect(view.value.history.slice(0, 2).map((e) => e.kind)).to.have.members([
      'password_reset',
      'factors_cleared',
    ]);
    expect(view.value.secondFactor.enabled).to.equal(false);
    expect(view.value.passkeys).to.deep.equal([]);
  });

  it('keeps the link alive when the new password breaks a rule', async () => {
    const kit = useCaseKit();
    await registered(kit);
    const token = await resetLink(kit);
    const refused = await reset(kit, token, 'short');
    expect(!refused.ok && refused.error).to.deep.include({ type: 'invalid_request', path: 'new_password' });
    expect((await kit.useCases.checkResetLink.execute(token)).ok).to.equal(true);
    expect((await logIn(kit, PASSWORD)).ok).to.equal(true);
  });
});
