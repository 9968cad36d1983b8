import type { KeyPair } from './key-pair-generator.js';

/** The key pair of the service's own actor (`/actor`), made once and shared by every process on the store. */
export interface InstanceKeyStore {
  /** The key pair, or null before one was stored. */
  get(): Promise<KeyPair | null>;
  /**
   * Stores `keyPair` unless one is stored already, and returns the one stored: of two processes creating it at
   * once, both get the first.
   */
  create(keyPair: KeyPair, now: Date): Promise<KeyPair>;
}
