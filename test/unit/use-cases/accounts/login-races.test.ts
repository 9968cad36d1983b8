import { expect } from 'chai';
import type { PasswordCheck } from '../../../../src/application/services/password-check.js';
import { IssueToken } from '../../../../src/application/use-cases/accounts/issue-token.js';
import { DisableUser } from '../../../../src/application/use-cases/operations/disable-user.js';
import { useCaseKit, KIT_ADDRESS } from '../../../support/use-case-kit.js';
import { PASSWORD, registered, type Kit } from './account-fixtures.js';

/** A login whose password check is done, then `meanwhile` runs (as it may while bcrypt finishes), then the token is issued. */
function loginRacing(kit: Kit, meanwhile: () => Promise<unknown>): IssueToken {
  const racing = {
    check: async (...args: Parameters<PasswordCheck['check']>) => {
      const checked = await kit.passwords.check(...args);
      await meanwhile();
      return checked;
    },
    succeeded: (username: string, address: string) => kit.passwords.succeeded(username, address),
  } as unknown as PasswordCheck;
  const { services } = kit.l2;
  return new IssueToken(racing, kit.store.accountSecurity, services.secondSteps, services.sessionStart);
}

describe('a login racing a password change, a deletion or a disabling', () => {
  it('gets no token when the password changed after it was checked', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const login = loginRacing(kit, () =>
      kit.changePassword.execute({
        session,
        currentPassword: PASSWORD,
        newPassword: 'a brand new passphrase',
        clientAddress: KIT_ADDRESS,
      }),
    );

    const result = await login.execute({ username: 'alice', password: PASSWORD, clientAddress: KIT_ADDRESS });

    expect(result).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    const live = await kit.writer.unrevoked(
      await kit.store.issuedTokens.listActiveByUser(session.claims.username, kit.clock.now()),
    );
    expect(live.map((token) => token.jti)).to.deep.equal([session.claims.jti]);
  });

  it('gets no token when the account was deleted after the password was checked', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const login = loginRacing(kit, () =>
      kit.deleteAccount.execute({ session, password: PASSWORD, clientAddress: KIT_ADDRESS }),
    );

    const result = await login.execute({ username: 'alice', password: PASSWORD, clientAddress: KIT_ADDRESS });

    expect(result).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    const live = await kit.writer.unrevoked(
      await kit.store.issuedTokens.listActiveByUser(session.claims.username, kit.clock.now()),
    );
    expect(live).to.deep.equal([]);
  });

  it('gets no token when the account was disabled after the password was checked', async () => {
    const kit = useCaseKit();
    const session = await registered(kit);
    const disable = new DisableUser(
      kit.store.users,
      kit.store.issuedTokens,
      kit.writer,
      kit.signals,
      kit.clock,
    );
    const login = loginRacing(kit, () => disable.execute('alice'));

    const result = await login.execute({ username: 'alice', password: PASSWORD, clientAddress: KIT_ADDRESS });

    expect(result).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
    const live = await kit.writer.unrevoked(
      await kit.store.issuedTokens.listActiveByUser(session.claims.username, kit.clock.now()),
    );
    expect(live).to.deep.equal([]);
    expect(
      await kit.login.execute({ username: 'alice', password: PASSWORD, clientAddress: KIT_ADDRESS }),
      'and no login while it stays disabled',
    ).to.deep.equal({ ok: false, error: { type: 'invalid_credentials' } });
  });
});
