import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { ClientAssertionSignatures } from '../../application/ports/client-assertion-signatures.js';
import type { ClientJwk } from '../../domain/client-document.js';

/** The algorithms a client may sign its assertion with, and the key type each needs. */
const KEY_TYPE_OF: Readonly<Record<string, string>> = { ES256: 'EC', RS256: 'RSA' };

/** Verifies client assertions with jose: the key named by `kid`, or without one each key of the algorithm's type. */
export class JoseClientAssertionSignatures implements ClientAssertionSignatures {
  async verify(jws: string, keys: readonly ClientJwk[]): Promise<Record<string, unknown> | null> {
    let header;
    try {
      header = decodeProtectedHeader(jws);
    } catch {
      return null;
    }
    const alg = header.alg ?? '';
    const kty = KEY_TYPE_OF[alg];
    if (kty === undefined) return null;
    const candidates = keys.filter(
      (key) => key.kty === kty && (header.kid === undefined ? true : key.kid === header.kid),
    );
    for (const candidate of candidates) {
      try {
        const key = await importJWK({ ...(candidate as JWK), alg }, alg);
        const { payload } = await compactVerify(jws, key, { algorithms: [alg] });
        const claims = JSON.parse(new TextDecoder().decode(payload)) as unknown;
        return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
          ? (claims as Record<string, unknown>)
          : null;
      } catch {
        // Not this key (or not a key at all): the next one may be it.
      }
    }
    return null;
  }
}
