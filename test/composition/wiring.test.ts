// The composition root (src/composition/compose.ts): one typed wiring for production, the CLI and the tests.
import { expect } from 'chai';
import type { SignatureVerifier } from '../../src/application/ports/signature-verifier.js';
import { lazy } from '../../src/application/lazy.js';
import { openMemoryStore } from '../../src/adapters/persistence/memory/memory-driver.js';
import { composeL2, type Overrides } from '../../src/composition/compose.js';
import { FixedClock } from '../support/fixed-clock.js';
import { ScriptedFederation, useCaseKit } from '../support/use-case-kit.js';

const memory = () => openMemoryStore();

describe('the composition root', () => {
  it('does not compile an override of the wrong type (a federation fake where a document fetcher is needed)', () => {
    const wrong: Overrides = {
      // @ts-expect-error — the scripted federation client cannot fetch documents: the verifier needs one that can.
      documents: () => new ScriptedFederation(),
      // @ts-expect-error — a part is made by a factory, not given as a value.
      clock: new FixedClock(new Date()),
    };
    const right: Overrides = { federation: () => new ScriptedFederation() };
    expect(Object.keys(wrong)).to.have.length(2);
    expect(Object.keys(right)).to.have.length(1);
  });

  it('uses an override everywhere the part is used: the fixed clock dates the tokens the use-cases issue', async () => {
    const kit = useCaseKit(new Date('2030-01-02T03:04:05.000Z'));
    await kit.register.execute({
      username: 'alice',
      password: 'correct horse battery',
      clientAddress: '192.0.2.9',
    });
    const login = await kit.login.execute({
      username: 'alice',
      password: 'correct horse battery',
      clientAddress: '192.0.2.9',
    });
    if (!login.ok) throw new Error(JSON.stringify(login.error));
    expect(login.value.expiresAt.toISOString()).to.equal('2030-02-01T03:04:05.000Z');
    expect(kit.l2.services.tokenIssuer).to.equal(kit.issuer);
  });

  it('makes a part only when something uses it, and once', () => {
    let verifiers = 0;
    const fake: SignatureVerifier = {
      verify: async () => ({ ok: true, keyId: 'k', owner: 'o' }),
      keyIdOf: () => null,
    };
    const { kit } = { kit: useCaseKit() };
    const l2 = composeL2(kit.l2.config, memory(), {
      signatureVerifier: () => {
        verifiers++;
        return fake;
      },
    });
    expect(l2.useCases.verifyToken).to.not.equal(undefined);
    expect(verifiers, 'verifying tokens needs no signature verifier').to.equal(0);
    expect(l2.useCases.receiveActivity).to.equal(l2.useCases.receiveActivity);
    expect(l2.signatureVerifier).to.equal(fake);
    expect(verifiers).to.equal(1);
  });

  it('names a wiring loop instead of overflowing the stack', () => {
    const parts = lazy<{ a: number; b: number }>({ a: (p) => p.b, b: (p) => p.a });
    expect(() => parts.a).to.throw('wiring loop: a → b → a');
  });
});
