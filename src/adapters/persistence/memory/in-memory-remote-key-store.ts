import type { InstanceKeyStore } from '../../../application/ports/instance-key-store.js';
import type { KeyPair } from '../../../application/ports/key-pair-generator.js';
import type { RemoteKey, RemoteKeyStore } from '../../../application/ports/remote-key-store.js';
import { MemoryDatabase } from './memory-database.js';

export class InMemoryRemoteKeyStore implements RemoteKeyStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async get(keyId: string): Promise<RemoteKey | null> {
    this.db.assertOpen();
    const key = this.db.remoteKeys.get(keyId);
    return key ? { ...key, fetchedAt: new Date(key.fetchedAt) } : null;
  }

  async put(key: RemoteKey): Promise<void> {
    this.db.assertOpen();
    this.db.remoteKeys.set(key.keyId, { ...key, fetchedAt: new Date(key.fetchedAt) });
  }
}

export class InMemoryInstanceKeyStore implements InstanceKeyStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async get(): Promise<KeyPair | null> {
    this.db.assertOpen();
    const stored = this.db.instanceKey;
    return stored && { publicKeyPem: stored.publicKeyPem, privateKeyPem: stored.privateKeyPem };
  }

  async create(keyPair: KeyPair, now: Date): Promise<KeyPair> {
    this.db.assertOpen();
    this.db.instanceKey ??= { ...keyPair, createdAt: now };
    return (await this.get())!;
  }
}
