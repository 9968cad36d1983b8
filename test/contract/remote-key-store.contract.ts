import { expect } from 'chai';
import { later, MINUTE, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

export function remoteKeyStoreContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: RemoteKeyStore`, () => {
    const store = useStore(harness);
    const key = {
      keyId: 'https://peer.example/users/bob#main-key',
      owner: 'https://peer.example/users/bob',
      publicKeyPem: '-----BEGIN PUBLIC KEY-----\nAAA\n-----END PUBLIC KEY-----\n',
      fetchedAt: T0,
    };

    it('keeps a fetched key and replaces it when fetched again', async () => {
      expect(await store().remoteKeys.get(key.keyId)).to.equal(null);
      await store().remoteKeys.put(key);
      expect(await store().remoteKeys.get(key.keyId)).to.deep.equal(key);

      const rotated = { ...key, publicKeyPem: 'ROTATED', fetchedAt: later(MINUTE) };
      await store().remoteKeys.put(rotated);

      expect(await store().remoteKeys.get(key.keyId)).to.deep.equal(rotated);
    });
  });
}
