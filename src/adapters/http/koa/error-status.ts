// The one place where use-case errors become HTTP answers: one exhaustive mapper per error type. Refusals that the
// person can fix by changing what they typed are InputProblems, which a form shows again (see pages.ts).
import type { PasswordCheckError } from '../../../application/services/password-check.js';
import type { AttachRendererError } from '../../../application/use-cases/accounts/attach-renderer.js';
import type { ChangePasswordError } from '../../../application/use-cases/accounts/change-password.js';
import type { DeleteAccountError } from '../../../application/use-cases/accounts/delete-account.js';
import type { IssueTokenError } from '../../../application/use-cases/accounts/issue-token.js';
import type { RegisterUserError } from '../../../application/use-cases/accounts/register-user.js';
import type { PublicActorError } from '../../../application/use-cases/accounts/get-public-actor.js';
import type { InboxError } from '../../../application/use-cases/federation/receive-activity.js';
import type { AssetError } from '../../../application/use-cases/registry/asset-checks.js';
import { assertNever } from '../../../domain/result.js';
import type { TokenVerdictError } from '../../../domain/token.js';
import { HttpProblem, InputProblem } from './problem.js';

/**
 * A token verdict as an HTTP answer. The detail reveals nothing from the token itself (RFC 7662 §2.2: an inactive
 * token gets no details). Pass the RFC 6750 challenge in `extra.headers` where the token was presented to
 * authenticate (not where it is the object of the call, as in /auth/verify).
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

/** A field that fails a rule, with the field named as API.md's validation errors do. */
const invalidField = (
  path: string,
  message: string,
  others: readonly { path: string; message: string }[] = [],
) =>
  new InputProblem(400, 'invalid_request', `${path}: ${message}`, {
    errors: [{ path, message }, ...others],
  });

export function registerProblem(error: RegisterUserError): HttpProblem {
  switch (error.type) {
    case 'invalid_request':
      return invalidField(error.path, error.message);
    case 'username_taken':
      return new InputProblem(409, error.type, `The username '${error.username}' is already registered.`);
    case 'rate_limited':
      return rateLimited('Too many accounts registered from your address. Try again later.', error);
    default:
      return assertNever(error);
  }
}

/** 429 with the Retry-After the limit computed; a form shows its message again. */
const rateLimited = (detail: string, error: { readonly retryAfterSeconds: number }): HttpProblem =>
  new InputProblem(429, 'rate_limited', detail, {
    headers: { 'Retry-After': String(error.retryAfterSeconds) },
  });

export function loginProblem(error: IssueTokenError): HttpProblem {
  return passwordProblem(error, 'The username or password is wrong.');
}

/** A password asked for again (to change it, or to delete the account): counted as a login attempt. */
function passwordProblem(error: PasswordCheckError, wrong = 'The password is wrong.'): HttpProblem {
  switch (error.type) {
    case 'invalid_credentials':
      return new InputProblem(401, error.type, wrong);
    case 'rate_limited':
      return rateLimited('Too many failed logins. Try again later.', error);
    case 'unavailable':
      return tooBusyToCheck(error);
    default:
      return assertNever(error);
  }
}

/**
 * 503 with Retry-After: so many passwords wait to be checked that this one was refused rather than queued. An
 * InputProblem although the person did nothing wrong, so that the form they filled in shows again with the message.
 */
const tooBusyToCheck = (error: { readonly retryAfterSeconds: number }): HttpProblem =>
  new InputProblem(
    503,
    'unavailable',
    `Too many passwords are being checked right now. Try again in ${error.retryAfterSeconds} second` +
      `${error.retryAfterSeconds === 1 ? '' : 's'}.`,
    { headers: { 'Retry-After': String(error.retryAfterSeconds) } },
  );

export function changePasswordProblem(error: ChangePasswordError): HttpProblem {
  switch (error.type) {
    case 'forbidden':
      return scopedTokenForbidden();
    case 'invalid_request':
      return invalidField(error.path, error.message);
    default:
      return passwordProblem(error, 'The current password is wrong.');
  }
}

export function deleteAccountProblem(error: DeleteAccountError): HttpProblem {
  return error.type === 'forbidden' ? scopedTokenForbidden() : passwordProblem(error);
}

export function revokeSessionProblem(error: { readonly type: 'forbidden' | 'not_found' }): HttpProblem {
  return error.type === 'forbidden'
    ? scopedTokenForbidden()
    : new HttpProblem(404, 'not_found', 'You have no such session.');
}

/** Listing one's sessions or renderers: the one refusal is a scoped token. */
export const listProblem = (error: { readonly type: 'forbidden' }): HttpProblem => {
  if (error.type !== 'forbidden') return assertNever(error.type);
  return scopedTokenForbidden();
};

/** Logout and detach: a token verdict, or a scoped token doing what only a session may. */
export function sessionProblem(error: TokenVerdictError | { readonly type: 'forbidden' }): HttpProblem {
  return error.type === 'forbidden' ? scopedTokenForbidden() : tokenProblem(error);
}

export function attachProblem(error: AttachRendererError): HttpProblem {
  switch (error.type) {
    case 'forbidden':
      return new InputProblem(403, error.type, error.detail);
    case 'invalid_request':
      return new InputProblem(400, error.type, error.detail, {
        errors: [{ path: 'l1_server', message: error.detail }],
      });
    case 'token_revoked':
      return tokenProblem(error);
    case 'rate_limited':
      return rateLimited('Too many changes in a short time. Try again later.', error);
    default:
      return assertNever(error);
  }
}

export function assetProblem(error: AssetError, name: string): HttpProblem {
  switch (error.type) {
    case 'invalid_request':
      return invalidField(error.path, error.message, error.others);
    case 'asset_exists':
      return new InputProblem(409, error.type, `The asset name '${error.name}' is already taken.`);
    case 'not_found':
      return new HttpProblem(404, error.type, `There is no asset named '${name}'.`);
    case 'gone':
      return new HttpProblem(410, error.type, `The asset '${name}' has been deleted.`);
    case 'forbidden':
      return error.reason === 'scoped_token'
        ? scopedTokenForbidden()
        : new InputProblem(403, error.type, 'Only the owner can change this asset.');
    case 'rate_limited':
      return rateLimited('Too many asset changes in a short time. Try again later.', error);
    default:
      return assertNever(error);
  }
}

/**
 * What a peer is told when its signature is refused — always the same words: the precise reason ("the key's server
 * refused the connection", "answered 404") would let anyone use the inbox to scan ports and names. Operators see the
 * reason in the log and the `l2_inbox_refusals_total` metric.
 */
export const SIGNATURE_REFUSED_DETAIL =
  'The HTTP signature could not be verified. Sign with the actor’s own key, over (request-target), host, date ' +
  'and digest (or RFC 9421 with content-digest), dated within 5 minutes.';
export const INBOX_RETRY_DETAIL = 'This activity could not be checked now; send it again later.';

/** A public actor that cannot be shown: unknown (404), or deleted or disabled (410). */
export function publicActorProblem(error: PublicActorError): HttpProblem {
  switch (error.type) {
    case 'not_found':
      return new HttpProblem(404, error.type, 'There is no such user.');
    case 'gone':
      return new HttpProblem(410, 'gone', 'This account has been deleted.');
    case 'disabled':
      return new HttpProblem(410, 'gone', 'This account is disabled.');
    default:
      return assertNever(error);
  }
}

/** An inbox refusal as an HTTP answer: 401 carries the signature challenge peers read. */
export function inboxProblem(error: InboxError): HttpProblem {
  switch (error.type) {
    case 'invalid_request':
      return new HttpProblem(400, error.type, error.message);
    case 'not_found':
      return new HttpProblem(404, error.type, 'There is no such user.');
    case 'gone':
      return new HttpProblem(410, error.type, 'This account has been deleted.');
    case 'unauthenticated':
      return new HttpProblem(401, error.type, SIGNATURE_REFUSED_DETAIL, {
        headers: {
          'WWW-Authenticate': 'Signature realm="inbox",headers="(request-target) host date digest"',
        },
      });
    case 'unavailable':
      return new HttpProblem(503, error.type, INBOX_RETRY_DETAIL, {
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      });
    case 'rate_limited':
      return new HttpProblem(429, error.type, error.message, {
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      });
    default:
      return assertNever(error);
  }
}
