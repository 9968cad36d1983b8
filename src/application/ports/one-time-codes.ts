/** The secrets of "Sign in with L2" (API.md §2.3): authorization codes and the PKCE check. */
export interface OneTimeCodes {
  /** A new unguessable code (256 random bits) and the SHA-256 hex the store keeps instead of it. */
  issue(): { readonly code: string; readonly codeHash: string };
  /** The SHA-256 hex a presented code is looked up by. */
  hashOf(code: string): string;
  /** Whether `verifier` is the preimage of the S256 `challenge` (RFC 7636 §4.6), compared in constant time. */
  matchesChallenge(verifier: string, challenge: string): boolean;
}
