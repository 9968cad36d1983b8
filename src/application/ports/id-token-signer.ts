import type { IdTokenClaims } from '../../domain/openid.js';

/** Signs ID tokens with the service's ID-token key (API.md §2.5) — never the notice key, never the token secret. */
export interface IdTokenSigner {
  /** The claims as a compact JWS: `alg: RS256`, the current key's `kid` (its RFC 7638 thumbprint), `typ: JWT`. */
  sign(claims: IdTokenClaims): Promise<string>;
  /**
   * The claims of an ID token this service signed (with the current or the previous key, RS256), whatever its `exp`
   * — RP-initiated logout takes expired ones as hints; null when the signature does not verify or it is no JWS.
   */
  signedClaims(idToken: string): Promise<Readonly<Record<string, unknown>> | null>;
}
