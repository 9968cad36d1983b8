/**
 * The kit's errors. Every one carries what an HTTP answer needs — `status` (and `statusCode`), `code` and `headers`
 * (RFC 6750 `WWW-Authenticate` on 401s, `Retry-After` on 503s when known) — the shape `express-oauth2-jwt-bearer`
 * uses, so an application's error handler can answer `res.status(err.status).set(err.headers)`.
 */

/** The four verdicts L2 gives for a token it does not accept (API.md §1, `POST /auth/verify`). */
export type TokenErrorCode = 'token_invalid' | 'token_expired' | 'token_revoked' | 'token_scope_mismatch';
export const TOKEN_ERROR_CODES: readonly TokenErrorCode[] = [
  'token_invalid',
  'token_expired',
  'token_revoked',
  'token_scope_mismatch',
];

/** An RFC 9457 problem, the shape L2 itself answers errors with. */
export interface Problem {
  type: 'about:blank';
  title: string;
  status: number;
  code: string;
  detail: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export class L1KitError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.headers = headers;
  }

  /** The same as `status`, for code written against `http-errors`-style objects. */
  get statusCode(): number {
    return this.status;
  }

  /** The RFC 9457 body to answer with. */
  toProblem(): Problem {
    return {
      type: 'about:blank',
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      code: this.code,
      detail: this.message,
    };
  }
}

const quote = (value: string) => value.replace(/[\\"]/g, '');

/** RFC 6750 §3: `Bearer realm="…"`, plus `error` and `error_description` when a token was presented. */
export function bearerChallenge(realm: string, error?: string, description?: string): string {
  let challenge = `Bearer realm="${quote(realm)}"`;
  if (error) challenge += `, error="${error}"`;
  if (description) challenge += `, error_description="${quote(description)}"`;
  return challenge;
}

/** No token at all (RFC 6750 §3.1: the challenge then carries no error code). */
export class UnauthorizedError extends L1KitError {
  declare readonly code: 'unauthenticated';
  constructor(realm: string) {
    super(401, 'unauthenticated', 'A bearer token is required.', {
      'WWW-Authenticate': bearerChallenge(realm),
    });
  }
}

const DESCRIPTIONS: Record<TokenErrorCode, string> = {
  token_invalid: 'The token is not one this L2 signed, or is malformed.',
  token_expired: 'The token has expired.',
  token_revoked: 'The token has been revoked.',
  token_scope_mismatch: 'The token is scoped to another L1 server.',
};

/** L2 does not accept the token. Always `401`, `WWW-Authenticate: Bearer …, error="invalid_token"`. */
export class TokenError extends L1KitError {
  declare readonly code: TokenErrorCode;
  constructor(code: TokenErrorCode, realm: string) {
    super(401, code, DESCRIPTIONS[code], {
      'WWW-Authenticate': bearerChallenge(realm, 'invalid_token', DESCRIPTIONS[code]),
    });
  }
}

/** Why L2 could not give a verdict. */
export type UnavailableReason =
  | 'network' // connection refused, reset, DNS…
  | 'timeout' // no complete answer within `timeoutMs`
  | 'status' // 5xx, 429 or any status the contract does not give
  | 'malformed' // an answer that does not follow the contract
  | 'backoff' // L2 asked for a pause (`Retry-After`) that has not ended
  | 'issuer_mismatch' // the metadata's issuer is not the configured L2
  | 'unknown_key'; // a notice names a key the kit's copy of L2's key set lacks, fetched too recently to refetch

/**
 * L2 could not give a verdict. The kit fails closed: this is never a user, always `503` (with `Retry-After` when L2
 * said when to come back).
 */
export class L2UnavailableError extends L1KitError {
  declare readonly code: 'unavailable';
  readonly reason: UnavailableReason;
  /** Seconds to wait before asking again, when L2 said so. */
  readonly retryAfter: number | undefined;

  constructor(reason: UnavailableReason, detail: string, retryAfter?: number) {
    super(
      503,
      'unavailable',
      `L2 cannot verify tokens right now (${detail}).`,
      retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
    );
    this.reason = reason;
    this.retryAfter = retryAfter;
  }
}

export type SignInErrorCode =
  | 'state_mismatch' // no sign-in started in this browser, or another one
  | 'access_denied' // the user pressed Deny at L2
  | 'invalid_callback' // no code, or an error L2 should not send
  | 'invalid_grant' // the code exchange was refused (RFC 6749 error)
  | 'invalid_request'
  | 'invalid_client';

/** "Sign in with L2" did not complete. `403` for `access_denied`, `400` otherwise. */
export class SignInError extends L1KitError {
  declare readonly code: SignInErrorCode;
  constructor(code: SignInErrorCode, detail: string) {
    super(code === 'access_denied' ? 403 : 400, code, detail);
  }
}
