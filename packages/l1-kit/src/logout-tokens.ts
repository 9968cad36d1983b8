import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Discovery } from './discovery.js';
import { L1KitError, L2UnavailableError } from './errors.js';
import { isObject, type FetchLike } from './http.js';
import type { LogoutTokenCheck, LogoutTokenVerdict } from './notices.js';
import { TOKEN_HASH } from './tokens.js';
import type { LogoutNotice } from './types.js';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/**
 * How long jose waits before it refetches L2's key set for an unknown `kid` (its default `cooldownDuration`): a notice
 * naming a key that is newer than the copy is answered 503 with this as Retry-After, so that L2 sends it again.
 */
const KEY_SET_COOLDOWN_SECONDS = 30;
/** Logout tokens live 120 s (API.md §2.4); accept some clock skew and delivery time, no more. */
const NOTICE_MAX_AGE_SECONDS = 300;
const CLOCK_TOLERANCE_SECONDS = 60;

/**
 * Checks the logout token of a notice (API.md §2.4, OIDC Back-Channel Logout 1.0): ES256 by a key of L2's JWKS
 * (fetched from the metadata's `jwks_uri` and kept, the way jose remote key sets are), `typ: logout+jwt`, `iss` =
 * the metadata issuer, `aud` = this server (its client document's URL in document mode), `iat` recent and not in the future, `exp` not passed, and the claims a
 * logout token must carry.
 */
export class LogoutTokens implements LogoutTokenCheck {
  #jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

  constructor(
    private readonly discovery: Discovery,
    private readonly settings: {
      /** The `aud` a logout token must name: `self`, or the client document's URL in document mode. */
      audience: string;
      timeoutMs: number;
      fetch: FetchLike;
      now: () => number;
    },
  ) {}

  async check(logoutToken: string): Promise<LogoutTokenVerdict> {
    try {
      return { kind: 'valid', notice: readClaims(await this.#verify(logoutToken)) };
    } catch (error) {
      if (keysUnavailable(error)) {
        const retryAfter = error instanceof L2UnavailableError ? error.retryAfter : undefined;
        return { kind: 'keys_unavailable', retryAfter };
      }
      return { kind: 'invalid', reason: reason(error) };
    }
  }

  async #verify(jwt: string): Promise<JWTPayload> {
    const metadata = await this.discovery.metadata();
    if (this.#jwks?.uri !== metadata.jwks_uri) {
      const fetchJwks: FetchLike = (url, init) => this.settings.fetch(url, init);
      this.#jwks = {
        uri: metadata.jwks_uri,
        keys: createRemoteJWKSet(new URL(metadata.jwks_uri), {
          timeoutDuration: this.settings.timeoutMs,
          [customFetch]: fetchJwks,
        }),
      };
    }
    // Read before the check: jose refetches the set for an unknown kid unless it fetched it moments ago.
    const recentlyFetched = this.#jwks.keys.coolingDown;
    try {
      const { payload } = await jwtVerify(jwt, this.#jwks.keys, {
        algorithms: ['ES256'],
        typ: 'logout+jwt',
        issuer: metadata.issuer,
        audience: this.settings.audience,
        requiredClaims: ['iat', 'exp', 'jti', 'sub', 'events'],
        maxTokenAge: NOTICE_MAX_AGE_SECONDS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.settings.now()),
      });
      return payload;
    } catch (error) {
      // A key L2 started signing with after the set was fetched (a rotation): not provably forged, so L2 is asked
      // to send the notice again once the set may be refetched — a permanent 400 would lose it.
      if (error instanceof joseErrors.JWKSNoMatchingKey && recentlyFetched) {
        throw new L2UnavailableError(
          'unknown_key',
          "the notice names a key not in L2's key set as fetched moments ago",
          KEY_SET_COOLDOWN_SECONDS,
        );
      }
      throw error;
    }
  }
}

/** The claims a logout token must carry beyond what `jwtVerify` checked (OIDC Back-Channel Logout 1.0 §2.4, §2.6). */
function readClaims(payload: JWTPayload): LogoutNotice {
  const fail = (what: string): never => {
    throw new LogoutTokenError(what);
  };
  if ('nonce' in payload) fail('a logout token must not carry a nonce');
  const events = payload.events;
  if (!isObject(events) || !isObject(events[BACKCHANNEL_LOGOUT_EVENT]))
    fail('events lacks the back-channel logout event');
  const { sub, jti, sid, token_hash: tokenHash, expires_at: expiresAt, iss, iat } = payload;
  if (typeof sub !== 'string' || sub === '') fail('sub is not a string');
  if (typeof jti !== 'string' || jti === '' || jti.length > 256) fail('jti is not a string');
  if (typeof tokenHash !== 'string' || !TOKEN_HASH.test(tokenHash))
    fail('token_hash is not a SHA-256 hex digest');
  if (sid !== undefined && typeof sid !== 'string') fail('sid is not a string');
  let expiry: Date | undefined;
  if (expiresAt !== undefined) {
    // A NumericDate, like every JWT time claim (API.md §0, §2.4); the notice's own JSON field is the ISO string.
    if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) fail('expires_at is not a NumericDate');
    expiry = new Date((expiresAt as number) * 1000);
  }
  return {
    username: sub as string,
    tokenHash: tokenHash as string,
    sid: sid as string | undefined,
    jti: jti as string,
    expiresAt: expiry,
    issuer: iss as string,
    issuedAt: new Date((iat as number) * 1000),
  };
}

class LogoutTokenError extends Error {}

/** Failures to get L2's keys (so L2 should retry), as opposed to a token that does not verify. */
function keysUnavailable(error: unknown): boolean {
  if (error instanceof L2UnavailableError) return true;
  if (error instanceof LogoutTokenError || error instanceof L1KitError) return false;
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) return true;
  if (error instanceof joseErrors.JOSEError) return error.code === 'ERR_JOSE_GENERIC';
  return true; // a network error from fetching the key set
}

function reason(error: unknown): string {
  if (error instanceof LogoutTokenError) return error.message;
  if (error instanceof joseErrors.JOSEError) return `${error.code}: ${error.message}`;
  return 'unreadable';
}
