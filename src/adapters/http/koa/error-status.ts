import { assertNever } from '../../../domain/result.js';
import type { InboxError } from '../../../application/use-cases/receive-activity.js';
import type { TokenVerdictError } from '../../../domain/token.js';
import { HttpProblem } from './problem.js';

/**
 * The one place where a token verdict becomes an HTTP answer. The detail reveals nothing from the token itself
 * (RFC 7662 §2.2: an inactive token gets no details). Pass the RFC 6750 challenge in `extra.headers` where the
 * token was presented to authenticate (not where it is the object of the call, as in /auth/verify).
 */
export function tokenProblem(error: TokenVerdictError, extra: Record<string, unknown> = {}): HttpProblem {
  switch (error.type) {
    case 'token_invalid':
      return new HttpProblem(401, error.type, 'The token is not valid.', extra);
    case 'token_expired':
      return new HttpProblem(401, error.type, 'The token has expired.', extra);
    case 'token_revoked':
      return new HttpProblem(401, error.type, 'The token has been revoked.', extra);
    case 'token_scope_mismatch':
      return new HttpProblem(401, error.type, 'The token is scoped to another L1 server.', extra);
    default:
      return assertNever(error);
  }
}

export const scopedTokenForbidden = (): HttpProblem =>
  new HttpProblem(403, 'forbidden', 'A token scoped to an L1 server cannot do this; use your own session.');

export const bearerChallenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export const unauthenticated = (): HttpProblem =>
  new HttpProblem(401, 'unauthenticated', 'Sign in, or send a token as "Authorization: Bearer <token>".', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });

/** An inbox refusal as an HTTP answer: 401 carries the signature challenge peers read. */
export function inboxProblem(error: InboxError): HttpProblem {
  switch (error.type) {
    case 'invalid_request':
      return new HttpProblem(400, error.type, error.message);
    case 'not_found':
      return new HttpProblem(404, error.type, 'There is no such user.');
    case 'unauthenticated':
      return new HttpProblem(401, error.type, error.message, {
        headers: {
          'WWW-Authenticate': 'Signature realm="inbox",headers="(request-target) host date digest"',
        },
      });
    case 'unavailable':
      return new HttpProblem(503, error.type, error.message, { headers: { 'Retry-After': '60' } });
    default:
      return assertNever(error);
  }
}
