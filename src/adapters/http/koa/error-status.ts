import { assertNever } from '../../../domain/result.js';
import type { TokenVerdictError } from '../../../domain/token.js';
import { HttpProblem } from './problem.js';

/** The one place where a token verdict becomes an HTTP answer. */
export function tokenProblem(error: TokenVerdictError, extra: Record<string, unknown> = {}): HttpProblem {
  switch (error.type) {
    case 'token_invalid':
      return new HttpProblem(401, error.type, 'The token is not valid.', extra);
    case 'token_expired':
      return new HttpProblem(
        401,
        error.type,
        `The token expired at ${error.expiredAt.toISOString()}.`,
        extra,
      );
    case 'token_revoked':
      return new HttpProblem(401, error.type, 'The token has been revoked.', extra);
    case 'token_scope_mismatch':
      return new HttpProblem(401, error.type, 'The token is scoped to another L1 server.', extra);
    default:
      return assertNever(error);
  }
}

export const unauthenticated = (): HttpProblem =>
  new HttpProblem(401, 'unauthenticated', 'Sign in, or send a token as "Authorization: Bearer <token>".', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
