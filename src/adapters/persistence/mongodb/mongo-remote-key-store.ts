import type { InstanceKeyStore } from '../../../application/ports/instance-key-store.js';
import type { KeyPair } from '../../../application/ports/key-pair-generator.js';
import type { RemoteKey, RemoteKeyStore } from '../../../application/ports/remote-key-store.js';
import { isDuplicateKey, storeCall } from './mongo-errors.js';
import { INSTANCE_KEY_DOCUMENTS, REMOTE_KEY_DOCUMENTS } from './codecs/federation-documents.js';
import type { MongoCollections } from './mongo-schema.js';

export class MongoRemoteKeyStore implements RemoteKeyStore {
  constructor(private readonly collections: MongoCollections) {}

  async get(keyId: string): Promise<RemoteKey | null> {
    const doc = await storeCall(() => this.collections.remoteKeys.findOne({ _id: keyId }));
    return doc ? REMOTE_KEY_DOCUMENTS.fromDocument(doc) : null;
  }

  async put(key: RemoteKey): Promise<void> {
    await storeCall(() =>
      this.collections.remoteKeys.replaceOne({ _id: key.keyId }, REMOTE_KEY_DOCUMENTS.toDocument(key), {
        upsert: true,
      }),
    );
  }
}

export class MongoInstanceKeyStore implements InstanceKeyStore {
  constructor(private readonly collections: MongoCollections) {}

  async get(): Promise<KeyPair | null> {
    const doc = await storeCall(() => this.collections.instanceKeys.findOne({ _id: 'instance' }));
    if (!doc) return null;
    const { publicKeyPem, privateKeyPem } = INSTANCE_KEY_DOCUMENTS.fromDocument(doc);
    return { publicKeyPem, privateKeyPem };
  }

  async create(keyPair: KeyPair, now: Date): Promise<KeyPair> {
    try {
      await storeCall(() =>
        this.collections.instanceKeys.insertOne(
          INSTANCE_KEY_DOCUMENTS.toDocument({ ...keyPair, createdAt: now }),
        ),
      );
    } catch (error) {
      // Another process stored one first: theirs is the key pair.
      if (!isDuplicateKey(error)) throw error;
    }
    const stored = await this.get();
    if (!stored) throw new Error('the instance key pair was not stored');
    return stored;
  }
}
