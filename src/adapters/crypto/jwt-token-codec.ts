import { createHash, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { SignedToken, TokenCodec } from '../../application/ports/token-codec.js';
import type { TokenClaims } from '../../domain/token.js';

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * HS256 JWTs. The algorithm is pinned on both sides (jsonwebtoken would otherwise accept HS384/HS512), expiry is
 * left to the domain's clock-aware check, and the secret is a KeyObject: a string secret is re-imported on every
 * verify, about 40 times slower.
 */
export class JwtTokenCodec implements TokenCodec {
  constructor(private readonly secret: KeyObject) {}

  sign(claims: TokenClaims): SignedToken {
    // The payload's own iat is kept (jsonwebtoken only fills it in when absent).
    const token = jwt.sign({ ...claims }, this.secret, { algorithm: 'HS256' });
    return { token, tokenHash: sha256Hex(token) };
  }

  decode(token: string): { payload: unknown; tokenHash: string } | null {
    try {
      const payload: unknown = jwt.verify(token, this.secret, {
        algorithms: ['HS256'],
        ignoreExpiration: true,
        ignoreNotBefore: false,
        complete: false,
      });
      return { payload, tokenHash: sha256Hex(token) };
    } catch {
      return null;
    }
  }
}
