import { expect } from 'chai';
import type { PasswordHasher } from '../../../../src/application/ports/password-hasher.js';
import { PasswordCheck } from '../../../../src/application/services/password-check.js';
import { IssueToken } from '../../../../src/application/use-cases/accounts/issue-token.js';
import { KIT_ADDRESS, memoryLoginThrottle, useCaseKit } from '../../../support/use-case-kit.js';

/** A hasher that records which hashes it compared against. */
class RecordingHasher implements PasswordHasher {
  readonly compared: (string | null)[] = [];
  async hash(): Promise<string> {
    return 'unused';
  }
  async verify(_bytes: Uint8Array, hash: string | null): Promise<boolean> {
    this.compared.push(hash);
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

  it('does one password comparison for an unknown user too, against the dummy hash', async () => {
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
