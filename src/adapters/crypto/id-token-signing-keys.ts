import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify, SignJWT } from 'jose';
import type { IdTokenSigner } from '../../application/ports/id-token-signer.js';
import type { IdTokenClaims } from '../../domain/openid.js';

/** An RSA public key as a JWK, as `/.well-known/jwks.json` publishes it next to the notice keys (API.md §2.5). */
export interface PublicIdTokenJwk {
  readonly kty: 'RSA';
  readonly n: string;
  readonly e: string;
  readonly kid: string;
  readonly use: 'sig';
  readonly alg: 'RS256';
}

interface IdTokenKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly jwk: PublicIdTokenJwk;
}

/** The sizes API.md §2.5 allows: below 2048 bits is breakable, above 4096 only slows every sign-in. */
export const ID_TOKEN_KEY_BITS = { min: 2048, max: 4096 } as const;

/** Reads a PKCS#8 PEM RSA private key of an allowed size; throws a plain Error saying what is wrong with it. */
function keyOf(pem: string): IdTokenKey {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (privateKey.asymmetricKeyType !== 'rsa' || bits < ID_TOKEN_KEY_BITS.min || bits > ID_TOKEN_KEY_BITS.max)
    throw new Error('the ID-token signing key must be an RSA private key of 2048–4096 bits (PKCS#8 PEM)');
  const publicKey = createPublicKey(privateKey);
  const { n, e } = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  // RFC 7638 §3.2: the required members of an RSA key, in lexicographic order, without white space.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
  return { privateKey, publicKey, jwk: { kty: 'RSA', n, e, kid, use: 'sig', alg: 'RS256' } };
}

/** The `kid` of an ID-token signing key (its RFC 7638 thumbprint): for the operator's rotation steps. */
export const idTokenKeyIdOf = (pem: string): string => keyOf(pem).jwk.kid;

/**
 * The ID-token signing keys (API.md §2.5): ID tokens are signed RS256 with the current key (`id_token_signing_key`)
 * and its `kid`; the JWKS publishes it and the previous one (`id_token_signing_key.previous`), so that during a
 * rotation clients already hold the key the next ID token names.
 */
export class IdTokenSigningKeys implements IdTokenSigner {
  private readonly current: IdTokenKey;
  private readonly previous: IdTokenKey | null;

  constructor(currentPem: string, previousPem: string | null = null) {
    this.current = keyOf(currentPem);
    this.previous = previousPem === null ? null : keyOf(previousPem);
  }

  get kid(): string {
    return this.current.jwk.kid;
  }

  sign(claims: IdTokenClaims): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: this.current.jwk.kid, typ: 'JWT' })
      .sign(this.current.privateKey);
  }

  async signedClaims(idToken: string): Promise<Readonly<Record<string, unknown>> | null> {
    // At most two keys: trying each is simpler than trusting the header's kid, and as fast.
    for (const key of [this.current, this.previous]) {
      if (key === null) continue;
      try {
        const { payload } = await compactVerify(idToken, key.publicKey, { algorithms: ['RS256'] });
        const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
        return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
          ? (claims as Record<string, unknown>)
          : null;
      } catch {
        // Not signed by this key (or not a JWS at all): the next key, or null.
      }
    }
    return null;
  }

  /** The public keys: the current one, then the previous one (a key twice is listed once). */
  jwks(): readonly PublicIdTokenJwk[] {
    const keys = [this.current, this.previous].filter((key): key is IdTokenKey => key !== null);
    return [...new Map(keys.map((key) => [key.jwk.kid, key.jwk])).values()];
  }
}
