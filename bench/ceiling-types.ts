/**
 * bcrypt hashes, RSA-2048 key pairs, RSA-SHA256 signatures (one HTTP signature each), their verifications, and
 * ECDSA P-256 (ES256) verifications of a WebAuthn assertion (a passkey sign-in's signature).
 */
export type CeilingKind = 'bcrypt' | 'rsa' | 'rsa-sign' | 'rsa-verify' | 'ecdsa-verify';

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
}

/** The machine's ceiling: cores × one core's rate. */
export interface Ceiling extends CeilingSample {
  readonly cores: number;
  readonly ceilingPerSecond: number;
}
