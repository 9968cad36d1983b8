import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { SignedToken, TokenCodec } from '../../application/ports/token-codec.js';
import type { TokenClaims } from '../../domain/token.js';

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A secret and the id tokens name it by. */
interface SigningSecret {
  readonly kid: string;
  readonly key: KeyObject;
}

/**
 * The id of a secret, as tokens carry it in their `kid` header: an HMAC of a fixed label under the secret, so it
 * names the secret without telling anything about it. Every instance sharing a secret computes the same id.
 */
export function keyIdOf(secret: Buffer): string {
  return createHmac('sha256', secret).update('l2 jwt key id').digest('base64url').slice(0, 16);
}

const secretOf = (secret: Buffer): SigningSecret => ({ kid: keyIdOf(secret), key: createSecretKey(secret) });

/** The `kid` of a token's header, undefined when it has none, null when the header is unreadable. */
function keyIdInHeader(token: string): string | undefined | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
    if (typeof header !== 'object' || header === null) return null;
    const { kid } = header as { kid?: unknown };
    return kid === undefined ? undefined : typeof kid === 'string' ? kid : null;
  } catch {
    return null;
  }
}

/**
 * HS256 JWTs. The algorithm is pinned on both sides (jsonwebtoken would otherwise accept HS384/HS512), expiry is
 * left to the domain's clock-aware check, and the secrets are KeyObjects: a string secret is re-imported on every
 * verify, about 40 times slower.
 *
 * Rotation: tokens are signed with the current secret and name it in their `kid` header; a token naming the
 * previous secret (`jwt_secret.previous`) verifies with it until it expires, so a rotation signs nobody out. A
 * token without a `kid` (made before key ids) is tried with the current secret, then the previous one; a token
 * naming any other secret is refused.
 */
export class JwtTokenCodec implements TokenCodec {
  private readonly current: SigningSecret;
  private readonly previous: SigningSecret | null;

  constructor(current: Buffer, previous: Buffer | null = null) {
    this.current = secretOf(current);
    this.previous = previous ? secretOf(previous) : null;
  }

  sign(claims: TokenClaims): SignedToken {
    // The payload's own iat is kept (jsonwebtoken only fills it in when absent).
    const token = jwt.sign({ ...claims }, this.current.key, { algorithm: 'HS256', keyid: this.current.kid });
    return { token, tokenHash: sha256Hex(token) };
  }

  decode(token: string): { payload: unknown; tokenHash: string } | null {
    const kid = keyIdInHeader(token);
    if (kid === null) return null;
    const candidates =
      kid === undefined
        ? [this.current, this.previous]
        : [this.current, this.previous].filter((secret) => secret?.kid === kid);
    for (const secret of candidates) {
      if (!secret) continue;
      const payload = this.verifyWith(token, secret.key);
      if (payload !== undefined) return { payload, tokenHash: sha256Hex(token) };
    }
    return null;
  }

  private verifyWith(token: string, key: KeyObject): unknown {
    try {
      return jwt.verify(token, key, {
        algorithms: ['HS256'],
        ignoreExpiration: true,
        ignoreNotBefore: false,
        complete: false,
      }) as unknown;
    } catch {
      return undefined;
    }
  }
}
