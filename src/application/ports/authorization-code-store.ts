import type { AuthorizationCode } from '../../domain/oauth.js';
import type { IssuedToken } from '../../domain/revocation.js';

/** What exchanging a code found: its first exchange (the code is now used), or a code used before. */
export type Redemption =
  | { readonly kind: 'redeemed'; readonly code: AuthorizationCode }
  /** Used before: `code.issued` is the token that first exchange got (null if it was refused on its way). */
  | { readonly kind: 'used'; readonly code: AuthorizationCode };

/** The authorization codes of "Sign in with L2", kept by their SHA-256 hash, never the code itself. */
export interface AuthorizationCodeStore {
  /** Keeps a new code. Codes are random: a hash seen before is a bug, and its write fails. */
  save(code: AuthorizationCode): Promise<void>;
  /** The code with this hash, used or not, or null when there is none (never issued, or cleaned up). */
  find(codeHash: string): Promise<AuthorizationCode | null>;
  /**
   * Marks the code used by an exchange that issues `issued`, in one atomic step: of any number of concurrent
   * exchanges of one code, exactly one gets `redeemed`; the others get `used`, with the token the first one issued,
   * which the caller then revokes. Null when there is no such code.
   */
  redeem(codeHash: string, issued: IssuedToken, now: Date): Promise<Redemption | null>;
  /** Removes codes that expired before `before`, used or not; returns how many. */
  deleteExpired(before: Date): Promise<number>;
}
