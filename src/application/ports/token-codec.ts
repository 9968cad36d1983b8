import type { TokenClaims } from '../../domain/token.js';

export interface SignedToken {
  readonly token: string;
  /** SHA-256 hex of the token string: the only form in which a token is ever stored. */
  readonly tokenHash: string;
}

export interface TokenCodec {
  /** Signs the claims as a JWT. */
  sign(claims: TokenClaims): SignedToken;
  /**
   * Checks the signature with the pinned algorithm and returns the untrusted payload with the token's hash, or
   * null for anything that is not a token this service signed. Claims and time are not checked here.
   */
  decode(token: string): { payload: unknown; tokenHash: string } | null;
}
