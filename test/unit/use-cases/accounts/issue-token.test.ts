import { expect } from 'chai';
import type { PasswordHasher } from '../../../../src/application/ports/password-hasher.js';
import { PasswordCheck } from '../../../../src/application/services/password-check.js';
import { IssueToken } from '../../../../src/application/use-cases/accounts/issue-token.js';
import { KIT_ADDRESS, memoryLoginThrottle, useCaseKit } from '../../../support/use-case-kit.js';

/** A hasher that records which hashes it compared against, and for which client. */
class RecordingHasher implements PasswordHasher {
  readonly compared: (string | null)[] = [];
  readonly clients: string[] = [];
  async hash(): Promise<string> {
    return 'unused';
  }
  async verify(_bytes: Uint8Array, hash: string | null, clientAddress: string): Promise<boolean> {
    this.compared.push(hash);
    this.clients.push(clientAddress);
    return false;
  }
  needsRehash(): boolean {
    return false;
  }
}

describe('IssueToken (login)', () => {
  const build = async () => {
    const kit = useCaseKit();
    await kit.register.execute({ username: 'alice', password: 'correct horse', clientAddress: KIT_ADDRESS });
    const hasher = new RecordingHasher();
    const throttle = memoryLoginThrottle({ perUsername: 2, perAddress: 100 });
    const login = new IssueToken(
      new PasswordCheck(kit.store.users, hasher, throttle),
      kit.store.accountSecurity,
      kit.l2.services.secondSteps,
      kit.l2.services.sessionStart,
    );
    return { hasher, login };
  };

  // The hasher answers a null hash with one compare against its dummy hash, or — when the cores are busy — after a
  // compare's usual time from a timer (test/adapters/crypto): either way one check, timed like a wrong password.
  it('asks for one password check for an unknown user too, against no hash (the dummy), naming the client', async () => {
    const { hasher, login } = await build();
    const unknown = await login.execute({ username: 'nobody', password: 'whatever', clientAddress: 'a' });
    const malformed = await login.execute({ username: '<script>', password: 'whatever', clientAddress: 'b' });
    const wrong = await login.execute({ username: 'alice', password: 'whatever', clientAddress: 'c' });
    expect([unknown, malformed, wrong]).to.deep.equal(
      Array(3).fill({ ok: false, error: { type: 'invalid_credentials' } }),
    );
    expect(hasher.compared).to.have.length(3);
    expect(hasher.compared[0]).to.equal(null);
    expect(hasher.compared[1]).to.equal(null);
    expect(hasher.compared[2]).to.match(/^\$2b\$04\$/);
    expect(hasher.clients, 'whose share of the line each check holds').to.deep.equal(['a', 'b', 'c']);
  });

  it('lets only the allowance of 30 parallel guesses reach bcrypt', async () => {
    const { hasher, login } = await build();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login.execute({ username: 'alice', password: 'guess', clientAddress: `a${i}` }),
      ),
    );
    expect(hasher.compared).to.have.length(2);
    expect(results.filter((r) => !r.ok && r.error.type === 'rate_limited')).to.have.length(28);
  });

  it('compares no password at all once the username is limited', async () => {
    const { hasher, login } = await build();
    await login.execute({ username: 'alice', password: 'x', clientAddress: 'a' });
    await login.execute({ username: 'ALICE', password: 'x', clientAddress: 'b' });
    const limited = await login.execute({ username: 'alice', password: 'correct horse', clientAddress: 'c' });
    expect(!limited.ok && limited.error.type).to.equal('rate_limited');
    expect(hasher.compared).to.have.length(2);
  });
});
