import { expect } from 'chai';
import { BcryptPasswordHasher } from '../../../../src/adapters/crypto/bcrypt-password-hasher.js';
import { OverloadedError } from '../../../../src/application/ports/errors.js';
import { ChangePassword } from '../../../../src/application/use-cases/accounts/change-password.js';
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

const NEW_PASSWORD = 'battery staple';

/** alice with two sessions, each with a scoped token, and bob with a session and a scoped token. */
async function twoUsers(kit: Kit) {
  const asking = await registered(kit);
  const other = await loggedIn(kit);
  const scopedOfAsking = await attached(kit, asking, 'https://a.example');
  const scopedOfOther = await attached(kit, other, 'https://b.example');
  const bob = await registered(kit, 'bob');
  const bobScoped = await attached(kit, bob, 'https://a.example');
  return { asking, other, scopedOfAsking, scopedOfOther, bob, bobScoped };
}

const change = (kit: Kit, session: Awaited<ReturnType<typeof registered>>, current: string, next: string) =>
  kit.changePassword.execute({ session, currentPassword: current, newPassword: next, clientAddress: 'a' });

describe('ChangePassword', () => {
  it('keeps the asking session and revokes every other token of the user, with one notice per scoped token', async () => {
    const kit = useCaseKit();
    const { asking, other, scopedOfAsking, scopedOfOther, bob, bobScoped } = await twoUsers(kit);

    expect(await change(kit, asking, PASSWORD, NEW_PASSWORD)).to.deep.equal({
      ok: true,
      value: { revoked: 3 },
    });

    expect(await isValid(kit, asking)).to.equal(true);
    for (const token of [other, scopedOfAsking, scopedOfOther])
      expect(await isValid(kit, token)).to.equal(false);
    expect(await isValid(kit, bob)).to.equal(true);
    expect(await isValid(kit, bobScoped)).to.equal(true);
    expect((await noticesSent(kit)).sort()).to.deep.equal(
      [scopedOfAsking.tokenHash, scopedOfOther.tokenHash].sort(),
    );
  });

  it('lets the new password log in and not the old one', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect((await change(kit, session, PASSWORD, NEW_PASSWORD)).ok).to.equal(true);

    const old = await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' });
    expect(old).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    expect(
      (await kit.login.execute({ username: 'alice', password: NEW_PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);
  });

  it('counts only the tokens it newly revoked', async () => {
    const kit = useCaseKit();
    const asking = await registered(kit);
    const other = await loggedIn(kit);
    const scoped = await attached(kit, other, 'https://a.example');
    // The scoped token revokes itself first: its notice is the only one queued so far.
    await kit.logout.execute({ token: scoped.token, everywhere: false });
    expect(await noticesSent(kit)).to.deep.equal([scoped.tokenHash]);

    expect(await change(kit, asking, PASSWORD, NEW_PASSWORD)).to.deep.equal({
      ok: true,
      value: { revoked: 1 },
    });
    expect(await isValid(kit, other)).to.equal(false);
    expect(await noticesSent(kit)).to.deep.equal([scoped.tokenHash]);
  });

  it('answers 0 when the asking session is the only token', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    expect(await change(kit, session, PASSWORD, NEW_PASSWORD)).to.deep.equal({
      ok: true,
      value: { revoked: 0 },
    });
    expect(await isValid(kit, session)).to.equal(true);
    await expectNothingQueued(kit);
  });

  it('refuses a scoped token, changing nothing', async () => {
    const kit = useCaseKit();
    const { asking, other, scopedOfAsking } = await twoUsers(kit);
    const before = await kit.store.users.findByUsername(asking.claims.username);

    expect(await change(kit, scopedOfAsking, PASSWORD, NEW_PASSWORD)).to.deep.equal({
      ok: false,
      error: { type: 'forbidden' },
    });
    expect((await kit.store.users.findByUsername(asking.claims.username))?.passwordHash).to.equal(
      before?.passwordHash,
    );
    for (const token of [asking, other, scopedOfAsking]) expect(await isValid(kit, token)).to.equal(true);
    await expectNothingQueued(kit);
  });

  it('answers invalid_credentials for a wrong current password, changing nothing', async () => {
    const kit = useCaseKit();
    const { asking, other, scopedOfAsking, scopedOfOther } = await twoUsers(kit);
    const before = await kit.store.users.findByUsername(asking.claims.username);

    expect(await change(kit, asking, 'wrong horse', NEW_PASSWORD)).to.deep.equal({
      ok: false,
      error: { type: 'invalid_credentials' },
    });
    expect((await kit.store.users.findByUsername(asking.claims.username))?.passwordHash).to.equal(
      before?.passwordHash,
    );
    for (const token of [asking, other, scopedOfAsking, scopedOfOther])
      expect(await isValid(kit, token)).to.equal(true);
    await expectNothingQueued(kit);
    expect(
      (await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'a' })).ok,
    ).to.equal(true);
  });

  for (const [why, newPassword, message] of [
    ['too short', 'short', 'Use 8 to 4096 characters.'],
    ['containing NUL', 'long enough\0but nul', 'A password cannot contain the NUL character.'],
  ] as const) {
    it(`answers invalid_request on new_password for a new password ${why}, changing nothing`, async () => {
      const kit = useCaseKit();
      const { asking, other, scopedOfOther } = await twoUsers(kit);
      const before = await kit.store.users.findByUsername(asking.claims.username);

      expect(await change(kit, asking, PASSWORD, newPassword)).to.deep.equal({
        ok: false,
        error: { type: 'invalid_request', path: 'new_password', message },
      });
      expect((await kit.store.users.findByUsername(asking.claims.username))?.passwordHash).to.equal(
        before?.passwordHash,
      );
      for (const token of [asking, other, scopedOfOther]) expect(await isValid(kit, token)).to.equal(true);
      await expectNothingQueued(kit);
    });
  }

  it('counts a wrong current password towards the login limit', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    for (let i = 0; i < 3; i++) {
      const wrong = await change(kit, session, `wrong ${i}`, NEW_PASSWORD);
      expect(!wrong.ok && wrong.error.type).to.equal('invalid_credentials');
    }
    const limited = await change(kit, session, PASSWORD, NEW_PASSWORD);
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    const login = await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: 'b' });
    expect(!login.ok && login.error.type).to.equal('rate_limited');
  });

  it('answers unavailable, changing nothing, when the hashing line is too full to hash the new password', async () => {
    const kit = useCaseKit();
    const { asking, other, scopedOfOther } = await twoUsers(kit);
    const before = await kit.store.users.findByUsername(asking.claims.username);
    /** Checks passwords, but its line is full by the time the new one is to be hashed. */
    class FullWhenHashing extends BcryptPasswordHasher {
      override hash(): Promise<string> {
        return Promise.reject(new OverloadedError('the line is full', 6));
      }
    }
    const changePassword = new ChangePassword(
      kit.passwords,
      new FullWhenHashing(4),
      kit.store.users,
      kit.store.issuedTokens,
      kit.writer,
      kit.signals,
      kit.clock,
    );

    const result = await changePassword.execute({
      session: asking,
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      clientAddress: 'a',
    });
    expect(result).to.deep.equal({ ok: false, error: { type: 'unavailable', retryAfterSeconds: 6 } });
    expect((await kit.store.users.findByUsername(asking.claims.username))?.passwordHash).to.equal(
      before?.passwordHash,
    );
    for (const token of [asking, other, scopedOfOther]) expect(await isValid(kit, token)).to.equal(true);
    await expectNothingQueued(kit);
  });
});
