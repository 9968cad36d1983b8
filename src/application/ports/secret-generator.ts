/** Random secrets for people and clients, and the one form in which the store keeps them. */
export interface SecretGenerator {
  /** 256 random bits, base64url: a challenge, a reset link's token, the id of a sign-in's second step. */
  newToken(): string;
  /**
   * A recovery code as a person reads and types it: 16 characters of an alphabet without look-alikes (80 random
   * bits), in groups of four (`abcd-efgh-jkmn-pqrs`).
   */
  newRecoveryCode(): string;
  /** The SHA-256 hex of a secret: what the store keeps instead of it. */
  digest(secret: string): string;
  /** Whether two digests are equal, in a time that does not depend on where they differ. */
  sameDigest(a: string, b: string): boolean;
}
