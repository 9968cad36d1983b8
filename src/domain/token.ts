import { normaliseL1Server, type L1ServerUrl } from './l1-server.js';
import { err, ok, type Result } from './result.js';
import { parseSignInMethods, type SignInMethods } from './sign-in-methods.js';
import { normaliseUsername, type Username } from './user.js';

export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;
/** Longer strings are rejected before any signature or hash work is done. */
export const MAX_TOKEN_LENGTH = 4096;
/** How far a token's `iat` may lie in the future (clock skew between L2 instances). */
export const ALLOWED_CLOCK_SKEW_SECONDS = 60;

export interface TokenClaims {
  readonly sub: Username;
  readonly username: Username;
  readonly l2_server: string;
  readonly iss: string;
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
  /** Present only on scoped tokens: the canonical L1 server the token is valid for. */
  readonly l1_server?: L1ServerUrl;
  /** Present only on scoped tokens: the `jti` of the session token that created it. */
  readonly sid?: string;
  /**
   * How the person signed in (RFC 8176); a scoped token carries its session's. Absent only from tokens issued
   * before L2 recorded it, which all came from a password (`methodsOf`).
   */
  readonly amr?: SignInMethods;
  /** Present only on tokens from `POST /oauth/token`: the granted scope string (API.md §2.5). */
  readonly scope?: string;
}

export type TokenVerdictError =
  | { readonly type: 'token_invalid' }
  | { readonly type: 'token_expired'; readonly expiredAt: Date }
  | { readonly type: 'token_revoked' }
  | { readonly type: 'token_scope_mismatch' };

export const toSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
export const fromSeconds = (seconds: number): Date => new Date(seconds * 1000);

export function isScoped(claims: TokenClaims): boolean {
  return claims.l1_server !== undefined;
}

export function expiresAt(claims: TokenClaims): Date {
  return fromSeconds(claims.exp);
}

export function issuedAt(claims: TokenClaims): Date {
  return fromSeconds(claims.iat);
}

/** Claims of a session token, issued at login or registration. */
export function sessionClaims(input: {
  username: Username;
  l2Server: string;
  now: Date;
  jti: string;
  amr: SignInMethods;
}): TokenClaims {
  const iat = toSeconds(input.now);
  return {
    sub: input.username,
    username: input.username,
    l2_server: input.l2Server,
    iss: input.l2Server,
    iat,
    exp: iat + TOKEN_LIFETIME_SECONDS,
    jti: input.jti,
    amr: [...input.amr],
  };
}

/** Claims of a token scoped to one L1 server; it never outlives the session token that created it. */
export function scopedClaims(input: {
  session: TokenClaims;
  l1Server: L1ServerUrl;
  now: Date;
  jti: string;
  scope?: string;
}): TokenClaims {
  const iat = toSeconds(input.now);
  return {
    sub: input.session.sub,
    username: input.session.username,
    l2_server: input.session.l2_server,
    iss: input.session.iss,
    iat,
    exp: Math.min(iat + TOKEN_LIFETIME_SECONDS, input.session.exp),
    jti: input.jti,
    l1_server: input.l1Server,
    sid: input.session.jti,
    // The scoped token says how its session signed in: an L1 server asking for a strong sign-in reads it here.
    ...(input.session.amr === undefined ? {} : { amr: [...input.session.amr] }),
    ...(input.scope === undefined ? {} : { scope: input.scope }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isWholeSeconds = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * Checks every claim a correctly signed payload must carry, with its type, and that it was issued by this
 * service. A signature alone proves nothing about the shape: jsonwebtoken accepts arrays, strings and tokens
 * without `exp`. Time is checked separately by {@link checkLifetime}.
 */
export function parseClaims(payload: unknown, thisL2Server: string): Result<TokenClaims, 'token_invalid'> {
  if (!isRecord(payload)) return err('token_invalid');
  const { sub, username, l2_server, iss, iat, exp, jti, l1_server, sid, amr, scope } = payload;
  if (!isNonEmptyString(sub) || username !== sub || !isNonEmptyString(jti)) return err('token_invalid');
  // Only a name this service could have issued: canonical (lower-case, within the username rules).
  const canonical = normaliseUsername(sub);
  if (!canonical.ok || canonical.value !== sub) return err('token_invalid');
  if (l2_server !== thisL2Server || iss !== thisL2Server) return err('token_invalid');
  if (!isWholeSeconds(iat) || !isWholeSeconds(exp) || exp <= iat || exp - iat > TOKEN_LIFETIME_SECONDS) {
    return err('token_invalid');
  }
  if (amr !== undefined && !parseSignInMethods(amr).ok) return err('token_invalid');
  if (scope !== undefined && typeof scope !== 'string') return err('token_invalid');
  const scoped = l1_server !== undefined || sid !== undefined;
  if (!scoped) return ok(payload as unknown as TokenClaims);
  if (!isNonEmptyString(l1_server) || !isNonEmptyString(sid)) return err('token_invalid');
  // The claim is compared in its normalised form (API.md: normalisation is used for every comparison), however the
  // signer spelled it; a claim that is no L1 server URL at all makes the token invalid.
  const normalised = normaliseL1Server(l1_server);
  if (!normalised.ok) return err('token_invalid');
  return ok({ ...(payload as unknown as TokenClaims), l1_server: normalised.value });
}

/** Rejects tokens that expired, or that claim to be issued in the future beyond the allowed clock skew. */
export function checkLifetime(claims: TokenClaims, now: Date): Result<TokenClaims, TokenVerdictError> {
  const nowSeconds = toSeconds(now);
  if (claims.iat > nowSeconds + ALLOWED_CLOCK_SKEW_SECONDS) return err({ type: 'token_invalid' });
  if (claims.exp <= nowSeconds) return err({ type: 'token_expired', expiredAt: expiresAt(claims) });
  return ok(claims);
}

/**
 * A scoped token is valid only at its own L1 server; a scoped token presented without an L1 server fails.
 * An unscoped token is valid at any L1 server.
 */
export function checkScope(
  claims: TokenClaims,
  requestingL1: L1ServerUrl | null,
): Result<TokenClaims, TokenVerdictError> {
  if (claims.l1_server === undefined) return ok(claims);
  return claims.l1_server === requestingL1 ? ok(claims) : err({ type: 'token_scope_mismatch' });
}
