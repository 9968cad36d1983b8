/**
 * bcrypt hashes, RSA-2048 key pairs, RSA-SHA256 signatures (one HTTP signature each), their verifications,
 * ECDSA P-256 (ES256) verifications of a WebAuthn assertion (a passkey sign-in's signature), and RS256 ID tokens
 * signed as L2 signs them (jose's SignJWT, an RSA-2048 key object: src/adapters/crypto/id-token-signing-keys.ts).
 */
export type CeilingKind = 'bcrypt' | 'rsa' | 'rsa-sign' | 'rsa-verify' | 'ecdsa-verify' | 'id-token-sign';

export interface CeilingSpec {
  readonly kind: CeilingKind;
  readonly seconds: number;
  readonly bcryptCost: number;
}

/** One core, operations one after another. */
export interface CeilingSample {
  readonly kind: CeilingKind;
  readonly count: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** id-token-sign: the length of the compact JWS signed, to compare with the ID tokens L2 answered. */
  readonly bytes?: number;
}

/** The machine's ceiling: cores × one core's rate. */
export interface Ceiling extends CeilingSample {
  readonly cores: number;
  readonly ceilingPerSecond: number;
}
