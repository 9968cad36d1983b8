import { expect } from 'chai';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { RsaKeyPairGenerator } from '../../../src/adapters/crypto/rsa-key-pair-generator.js';

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
});
