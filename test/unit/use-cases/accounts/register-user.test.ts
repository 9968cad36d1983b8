import { expect } from 'chai';
import { KIT_ADDRESS, KIT_REGISTRATIONS_PER_ADDRESS, useCaseKit } from '../../../support/use-case-kit.js';

describe('RegisterUser', () => {
  it('limits accounts per client address, counting only registrations that would be created', async () => {
    const kit = useCaseKit();
    const register = (username: string, password = 'correct horse', clientAddress = KIT_ADDRESS) =>
      kit.register.execute({ username, password, clientAddress });

    for (let i = 0; i < KIT_REGISTRATIONS_PER_ADDRESS; i++) {
      expect((await register(`user_${i}`)).ok).to.equal(true);
      // Refused input and taken names cost no hashing, so they spend nothing.
      expect(await register(`user_${i}`)).to.deep.include({ ok: false });
      expect((await register('other', 'a\u0000bcdefgh')).ok).to.equal(false);
    }
    const limited = await register('one_more');
    expect(limited.ok).to.equal(false);
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    expect(await kit.store.users.findByUsername('one_more' as never)).to.equal(null);
    expect((await register('one_more', 'correct horse', '192.0.2.2')).ok).to.equal(true);
  });

  it('refuses a password with a NUL character with the reason, before any work', async () => {
    const result = await useCaseKit().register.execute({
      username: 'alice',
      password: 'abc\u0000defgh',
      clientAddress: KIT_ADDRESS,
    });
    expect(result).to.deep.equal({
      ok: false,
      error: {
        type: 'invalid_request',
        path: 'password',
        message: 'A password cannot contain the NUL character.',
      },
    });
  });
});
