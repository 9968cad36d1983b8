import { errors as joseErrors, type JWTPayload } from 'jose';
import { L1KitError, L2UnavailableError } from './errors.js';
import { isObject } from './http.js';
import { hashToken, type L1Kit } from './kit.js';
import type { KitResponse, LogoutNotice } from './types.js';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const TOKEN_HASH = /^[0-9a-f]{64}$/;
const MAX_NOTICE_BYTES = 64 * 1024;

/**
 * Receives L2's revocation notices (`POST <self>/auth/revoke`, API.md §2 and §2.4). For every notice it first purges
 * the named token's cached verdict — harmless even when the notice is forged — and only then checks the signed
 * `logout_token`; the application's `onLogout` runs once per verified notice. Answers: `204` handled (or L2's
 * redelivery of a notice handled before: signed afresh, same `jti`), `400` refused (unsigned, forged, expired, the
 * same logout token replayed…; L2 does not retry a 4xx), `503` L2's keys cannot be fetched right now, the notice
 * names a key newer than the kit's copy of the set, or the same notice is still being handled, and `500` the hook
 * threw (L2 retries all three).
 */
export class NoticeReceiver {
  constructor(
    private readonly kit: L1Kit,
    private readonly onLogout: ((notice: LogoutNotice) => void | Promise<void>) | undefined,
    private readonly unmount: () => void,
  ) {}

  /** Handles one notice body: a parsed JSON value, or the raw body as a string or bytes. */
  async handle(body: unknown): Promise<KitResponse> {
    const notice = parse(body);
    if (!isObject(notice)) return refuse(400, 'invalid_request', 'The notice is not a JSON object.');
    if (typeof notice.token_hash === 'string' && TOKEN_HASH.test(notice.token_hash))
      this.kit.purge(notice.token_hash);
    if (typeof notice.logout_token !== 'string') {
      return refuse(
        400,
        'invalid_request',
        'The notice is not signed (no logout_token): cache purged, nothing else.',
      );
    }

    let claims: LogoutNotice;
    try {
      claims = readClaims(await this.kit.verifyLogoutToken(notice.logout_token));
    } catch (error) {
      if (keysUnavailable(error)) {
        const retryAfter = error instanceof L2UnavailableError ? error.retryAfter : undefined;
        return refuse(503, 'unavailable', "L2's signing keys cannot be fetched right now.", retryAfter);
      }
      return refuse(400, 'invalid_request', `The logout token is not valid: ${reason(error)}.`);
    }
    this.kit.purge(claims.tokenHash);
    const seen = this.kit.claimNotice(claims.jti, hashToken(notice.logout_token));
    if (seen === 'replayed')
      return refuse(400, 'invalid_request', 'This logout token was received before (a replay).');
    // L2's redelivery of a notice whose hook ran (its answer was lost): acknowledged, the hook is not run again.
    if (seen === 'done') return { status: 204, headers: { 'Cache-Control': 'no-store' } };
    if (seen === 'pending') {
      return refuse(503, 'unavailable', 'This notice is being handled; its outcome is not known yet.', 2);
    }
    try {
      await this.onLogout?.(claims);
    } catch {
      this.kit.settleNotice(claims.jti, false);
      return refuse(500, 'internal_error', 'internal_error');
    }
    this.kit.settleNotice(claims.jti, true);
    return { status: 204, headers: { 'Cache-Control': 'no-store' } };
  }

  /** Unmounts the receiver: once none is left, valid answers are no longer cached (and those cached are dropped). */
  close(): void {
    this.unmount();
  }
}

function parse(body: unknown): unknown {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    if (body.length > MAX_NOTICE_BYTES) return undefined;
    try {
      return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    } catch {
      return undefined;
    }
  }
  return body;
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

function refuse(status: number, code: string, detail: string, retryAfter?: number): KitResponse {
  const titles: Record<number, string> = {
    400: 'Bad Request',
    500: 'Internal Server Error',
    503: 'Service Unavailable',
  };
  return {
    status,
    headers: {
      'Content-Type': 'application/problem+json',
      'Cache-Control': 'no-store',
      ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
    },
    body: JSON.stringify({ type: 'about:blank', title: titles[status], status, code, detail }),
  };
}
