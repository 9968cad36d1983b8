// Rule: a token is good when this service signed it (HS256), every claim is present and well typed, it has not
// expired and it is not in the revocation records. When the records cannot be read, the answer is "unavailable",
// never "valid".
import { err, ok, type Result } from '../../domain/result.js';
import {
  checkLifetime,
  MAX_TOKEN_LENGTH,
  parseClaims,
  type TokenClaims,
  type TokenVerdictError,
} from '../../domain/token.js';
import type { BoundedCache, CacheFactory } from '../ports/bounded-cache.js';
import type { Clock } from '../ports/clock.js';
import { StoreUnavailableError } from '../ports/errors.js';
import type { RevocationStore } from '../ports/revocation-store.js';
import type { TokenCodec } from '../ports/token-codec.js';

export interface AuthenticatedToken {
  readonly token: string;
  readonly tokenHash: string;
  readonly claims: TokenClaims;
}

/** Tokens whose signature and claims were found good, remembered; past this, the least recently used goes first. */
const REMEMBERED_TOKENS = 10_000;

type Decoded = { readonly tokenHash: string; readonly claims: TokenClaims };

/**
 * A service, not a use-case: verify, logout, attach and every signed-in page each use a different part of it
 * (the full check, decoding without the store, the revocation lookup).
 *
 * What a token's signature and claims say never changes, and an L1 server asks about the same session token on
 * every request its user makes: the decoding of the 10,000 good tokens used last is remembered (by the exact token
 * string; a few MiB at most). Lifetime and revocation are checked on every call — a remembered token revoked a
 * moment ago fails at once. Only tokens whose signature verified are remembered, so nobody can fill the memory
 * without the secret.
 */
export class AuthenticateToken {
  private readonly decoded: BoundedCache<string, Decoded>;

  constructor(
    private readonly codec: TokenCodec,
    private readonly revocations: RevocationStore,
    private readonly clock: Clock,
    private readonly l2Server: string,
    caches: CacheFactory,
  ) {
    this.decoded = caches.create({ max: REMEMBERED_TOKENS });
  }

  /** Signature, claims and lifetime only — no store access. Logout uses this: revoking twice is harmless. */
  decodeUnexpired(token: string): Result<AuthenticatedToken, TokenVerdictError> {
    const decoded = this.decoded.get(token) ?? this.decode(token);
    if (!decoded) return err({ type: 'token_invalid' });
    const alive = checkLifetime(decoded.claims, this.clock.now());
    if (!alive.ok) return alive;
    return ok({ token, tokenHash: decoded.tokenHash, claims: decoded.claims });
  }

  /** Signature and claims, remembered when good. */
  private decode(token: string): Decoded | null {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
    const verified = this.codec.decode(token);
    if (!verified) return null;
    const claims = parseClaims(verified.payload, this.l2Server);
    if (!claims.ok) return null;
    const decoded = { tokenHash: verified.tokenHash, claims: claims.value };
    this.decoded.set(token, decoded);
    return decoded;
  }

  /** The full check: signature, claims, lifetime and the revocation records. */
  async authenticate(token: string): Promise<Result<AuthenticatedToken, TokenVerdictError>> {
    const decoded = this.decodeUnexpired(token);
    if (!decoded.ok) return decoded;
    return (await this.isRevoked(decoded.value.tokenHash)) ? err({ type: 'token_revoked' }) : decoded;
  }

  async isRevoked(tokenHash: string): Promise<boolean> {
    try {
      return await this.revocations.isRevoked(tokenHash);
    } catch (cause) {
      throw cause instanceof StoreUnavailableError
        ? cause
        : new StoreUnavailableError('revocation records could not be read', { cause });
    }
  }
}
