/**
 * `clientAddress` is the key the login limits count the asker under (an IPv4 address, an IPv6 /64): the hasher keeps
 * one client from holding more than its share of the line.
 */
export interface PasswordHasher {
  /**
   * Hashes the password bytes (already cut to what counts). Runs off the event loop. Throws OverloadedError at once,
   * without hashing, when so much hashing already waits that this one would wait too long.
   */
  hash(passwordBytes: Uint8Array): Promise<string>;
  /**
   * Whether the bytes match the hash. With `hash` null the answer is false after the time a wrong password takes:
   * one compare against a dummy hash of the same cost, never more — or, when the cores are busy, no compare at all
   * and the answer after what a compare takes to answer now (it is false whatever happens, and must not take a core
   * from a real login). Throws OverloadedError at once, without comparing, when too much hashing already waits or
   * `clientAddress` already has its share of the line waiting; never for a null `hash`.
   */
  verify(passwordBytes: Uint8Array, hash: string | null, clientAddress: string): Promise<boolean>;
  /** Whether a stored hash was made with other settings (a lower cost) than new hashes are: worth making again. */
  needsRehash(hash: string): boolean;
}
