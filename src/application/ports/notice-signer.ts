import type { LogoutTokenClaims } from '../../domain/logout-token.js';

/** Signs the logout tokens of revocation notices with the service's notice key (API.md §2.4). */
export interface NoticeSigner {
  /**
   * The claims as a compact JWS (`alg: ES256`, the current key's `kid`, `typ: logout+jwt`). The key is L2's own,
   * never the token secret; its public half is published at `/.well-known/jwks.json`.
   */
  sign(claims: LogoutTokenClaims): Promise<string>;
}
