import type { IdTokenClaims } from '../../domain/openid.js';

/** Signs ID tokens with the service's ID-token key (API.md §2.5) — never the notice key, never the token secret. */
export interface IdTokenSigner {
  /** The claims as a compact JWS: `alg: RS256`, the current key's `kid` (its RFC 7638 thumbprint), `typ: JWT`. */
  sign(claims: IdTokenClaims): Promise<string>;
}
