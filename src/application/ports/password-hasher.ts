export interface PasswordHasher {
  /**
   * Hashes the password bytes (already cut to what counts). Runs off the event loop. Throws OverloadedError at once,
   * without hashing, when so much hashing already waits that this one would wait too long.
   */
  hash(passwordBytes: Uint8Array): Promise<string>;
  /**
   * Whether the bytes match the hash. With `hash` null it compares against a dummy hash of the same cost and
   * returns false, so an unknown user costs the same time as a wrong password: one compare, never more. Throws
   * OverloadedError at once, without comparing, as `hash` does.
   */
  verify(passwordBytes: Uint8Array, hash: string | null): Promise<boolean>;
  /** Whether a stored hash was made with other settings (a lower cost) than new hashes are: worth making again. */
  needsRehash(hash: string): boolean;
}
