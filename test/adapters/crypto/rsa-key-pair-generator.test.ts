import { expect } from 'chai';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import {
  keyGenerationsAtOnce,
  RsaKeyPairGenerator,
} from '../../../src/adapters/crypto/rsa-key-pair-generator.js';
import { OverloadedError } from '../../../src/application/ports/errors.js';

describe('RsaKeyPairGenerator', () => {
  it('runs at most its cap of generations at once; the rest wait their turn and still get distinct keys', async () => {
    const generator = new RsaKeyPairGenerator(2);
    const pending = Array.from({ length: 5 }, () => generator.generate());
    expect(generator.load).to.deep.equal({ running: 2, waiting: 3 });

    const pairs = await Promise.all(pending);
    expect(generator.load).to.deep.equal({ running: 0, waiting: 0 });
    expect(new Set(pairs.map((pair) => pair.publicKeyPem)).size).to.equal(5);
    for (const pair of pairs) {
      expect(createPublicKey(pair.publicKeyPem).asymmetricKeyDetails?.modulusLength).to.equal(2048);
      expect(createPrivateKey(pair.privateKeyPem).asymmetricKeyType).to.equal('rsa');
    }
  });

  it('refuses a generation with OverloadedError once its line is full, and takes one again when it drains', async () => {
    const generator = new RsaKeyPairGenerator(1, 2);
    const accepted = [generator.generate(), generator.generate(), generator.generate()];
    let refused: unknown = null;
    await generator.generate().catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(OverloadedError);
    await Promise.all(accepted);
    expect((await generator.generate()).publicKeyPem).to.match(/BEGIN PUBLIC KEY/);
  });

  it('leaves two threads of the pool to bcrypt and the rest, and runs at most two generations at once', () => {
    expect(keyGenerationsAtOnce(2, 4)).to.equal(2);
    expect(keyGenerationsAtOnce(16, 4)).to.equal(2);
    expect(keyGenerationsAtOnce(1, 4)).to.equal(1);
    expect(keyGenerationsAtOnce(16, 3)).to.equal(1);
    expect(keyGenerationsAtOnce(16, 64)).to.equal(2);
  });
});
