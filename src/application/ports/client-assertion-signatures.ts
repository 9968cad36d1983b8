import type { ClientJwk } from '../../domain/client-document.js';

/** Checks the signature of a client assertion (RFC 7523 §2.2) by a client's published keys. */
export interface ClientAssertionSignatures {
  /**
   * The assertion's claims when it is a compact JWS, `alg` ES256 or RS256, signed by one of `keys` — the one its
   * `kid` names, or without `kid` any key of the algorithm's type; null otherwise (never throws for a bad JWS).
   */
  verify(jws: string, keys: readonly ClientJwk[]): Promise<Record<string, unknown> | null>;
}
