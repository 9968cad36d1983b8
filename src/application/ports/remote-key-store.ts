/** A remote actor's public key, as fetched from its `keyId`. */
export interface RemoteKey {
  readonly keyId: string;
  /** The actor the key belongs to (confirmed by the actor document listing it). */
  readonly owner: string;
  /** SPKI PEM. */
  readonly publicKeyPem: string;
  readonly fetchedAt: Date;
}

/** Keys of remote actors kept once fetched, shared by every process on the store. */
export interface RemoteKeyStore {
  /** The key stored under `keyId`, or null. */
  get(keyId: string): Promise<RemoteKey | null>;
  /** Stores the key, replacing any under the same id (idempotent). */
  put(key: RemoteKey): Promise<void>;
}
