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
import type { Clock } from '../ports/clock.js';
import { StoreUnavailableError } from '../ports/errors.js';
import type { RevocationStore } from '../ports/revocation-store.js';
import type { TokenCodec } from '../ports/token-codec.js';

export interface AuthenticatedToken {
  readonly token: string;
  readonly tokenHash: string;
  readonly claims: TokenClaims;
}

/**
 * A service, not a use-case: verify, logout, attach and every signed-in page each use a different part of it
 * (the full check, decoding without the store, the revocation lookup).
 */
export class AuthenticateToken {
  constructor(
    private readonly codec: TokenCodec,
    private readonly revocations: RevocationStore,
    private readonly clock: Clock,
    private readonly l2Server: string,
  ) {}

  /** Signature, claims and lifetime only — no store access. Logout uses this: revoking twice is harmless. */
  decodeUnexpired(token: string): Result<AuthenticatedToken, TokenVerdictError> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return err({ type: 'token_invalid' });
    const decoded = this.codec.decode(token);
    if (!decoded) return err({ type: 'token_invalid' });
    const claims = parseClaims(decoded.payload, this.l2Server);
    if (!claims.ok) return err({ type: 'token_invalid' });
    const alive = checkLifetime(claims.value, this.clock.now());
    if (!alive.ok) return alive;
    return ok({ token, tokenHash: decoded.tokenHash, claims: claims.value });
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
