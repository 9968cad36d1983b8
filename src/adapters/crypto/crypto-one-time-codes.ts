import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OneTimeCodes } from '../../application/ports/one-time-codes.js';
import { sha256Hex } from './jwt-token-codec.js';

/** Authorization codes from node:crypto: 256 random bits, stored as SHA-256 hex; PKCE S256 checked in constant time. */
export class CryptoOneTimeCodes implements OneTimeCodes {
  issue(): { code: string; codeHash: string } {
    const code = randomBytes(32).toString('base64url');
    return { code, codeHash: sha256Hex(code) };
  }

  hashOf(code: string): string {
    return sha256Hex(code);
  }

  matchesChallenge(verifier: string, challenge: string): boolean {
    const expected = createHash('sha256').update(verifier, 'ascii').digest();
    const given = Buffer.from(challenge, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
