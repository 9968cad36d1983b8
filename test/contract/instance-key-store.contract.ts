import { expect } from 'chai';
import { T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

export function instanceKeyStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: InstanceKeyStore`, () => {
    const store = useStore(harness);

    it('stores the service key pair once: a second one is refused and the first returned', async () => {
      const first = { publicKeyPem: 'PUBLIC-1', privateKeyPem: 'PRIVATE-1' };
      expect(await store().instanceKeys.get()).to.equal(null);

      expect(await store().instanceKeys.create(first, T0)).to.deep.equal(first);
      expect(
        await store().instanceKeys.create({ publicKeyPem: 'P2', privateKeyPem: 'S2' }, T0),
      ).to.deep.equal(first);
      expect(await store().instanceKeys.get()).to.deep.equal(first);
    });
  });
}
