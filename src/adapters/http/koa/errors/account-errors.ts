// The accounts' error unions as HTTP answers (API.md §1–§2): signing in and up, passwords, sessions, renderers.
import type { PasswordCheckError } from '../../../../application/services/password-check.js';
import type { AttachRendererError } from '../../../../application/use-cases/accounts/attach-renderer.js';
import type { ChangePasswordError } from '../../../../application/use-cases/accounts/change-password.js';
import type { DeleteAccountError } from '../../../../application/use-cases/accounts/delete-account.js';
import type { IssueTokenError } from '../../../../application/use-cases/accounts/issue-token.js';
import type { RegisterUserError } from '../../../../application/use-cases/accounts/register-user.js';
import type { TokenVerdictError } from '../../../../domain/token.js';
import type { HttpProblem } from '../problem.js';
import { ErrorTable, withMembers, type Entries, type Refusal } from './error-table.js';
import {
  FIELD_RULE_DOC,
  invalidField,
  rateLimited,
  scopedTokenForbidden,
  tokenVerdicts,
} from './shared-refusals.js';

/** A token verdict where a token is the object of the call (/auth/verify, /auth/me). */
export const TOKEN_ERRORS = new ErrorTable<TokenVerdictError>(tokenVerdicts);

/**
 * A token verdict where the token is the object of the call, with more body members (/auth/verify adds
 * `valid: false`). Where a token was presented to authenticate, AUTHENTICATION answers, with the RFC 6750 challenge.
 */
export const tokenProblem = (error: TokenVerdictError, extra: HttpProblem['extra'] = {}): HttpProblem =>
  withMembers(TOKEN_ERRORS.problem(error), extra);

/** How the request authenticates before any use-case runs (request-auth.ts). */
export type RequestAuthError =
  { readonly type: 'unauthenticated' } | { readonly type: 'malformed_authorization' };

export const bearerChallenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

/** A token's verdict where it was presented to authenticate: with the RFC 6750 challenge. */
const challenged = <E>(refusal: Refusal<E, unknown>): Refusal<E, unknown> => ({
  ...refusal,
  headers: () => bearerChallenge,
});

/** No token, or an Authorization header that is not a bearer token; then the token's own verdict. */
export const AUTHENTICATION = new ErrorTable<RequestAuthError | TokenVerdictError>({
  unauthenticated: {
    status: 401,
    doc: 'no token was sent',
    detail: 'Sign in, or send a token as "Authorization: Bearer <token>".',
    headers: () => ({ 'WWW-Authenticate': 'Bearer' }),
  },
  malformed_authorization: {
    status: 401,
    code: 'token_invalid',
    doc: 'the Authorization header is not "Bearer <token>"',
    detail: 'The Authorization header must be "Bearer <token>".',
    headers: () => bearerChallenge,
  },
  token_invalid: challenged(tokenVerdicts.token_invalid),
  token_expired: challenged(tokenVerdicts.token_expired),
  token_revoked: challenged(tokenVerdicts.token_revoked),
  token_scope_mismatch: challenged(tokenVerdicts.token_scope_mismatch),
});

export const REGISTER_ERRORS = new ErrorTable<RegisterUserError>({
  invalid_request: invalidField(),
  username_taken: {
    status: 409,
    doc: 'the username is registered already (in any case)',
    input: true,
    detail: (error) => `The username '${error.username}' is already registered.`,
  },
  rate_limited: rateLimited(
    'Too many accounts registered from your address. Try again later.',
    'too many registrations from this address (Retry-After says when to try again)',
  ),
});

/**
 * A password asked for (to sign in, change it, or delete the account): counted as a login attempt. 503 when so many
 * passwords wait to be checked that this one was refused rather than queued — an input problem although the
 * person did nothing wrong, so that the form they filled in shows again with the message.
 */
export const passwordRefusals = (wrong: string, doc: string): Entries<PasswordCheckError, unknown> => ({
  invalid_credentials: { status: 401, doc, input: true, detail: wrong },
  rate_limited: rateLimited(
    'Too many failed logins. Try again later.',
    'too many failed logins (see Retry-After)',
  ),
  unavailable: {
    status: 503,
    doc: 'too many passwords are being checked now; nothing was checked (see Retry-After)',
    input: true,
    detail: ({ retryAfterSeconds: s }) =>
      `Too many passwords are being checked right now. Try again in ${s} second${s === 1 ? '' : 's'}.`,
    headers: (error) => ({ 'Retry-After': String(error.retryAfterSeconds) }),
  },
});

export const LOGIN_ERRORS = new ErrorTable<IssueTokenError>({
  ...passwordRefusals(
    'The username or password is wrong.',
    'the username or password is wrong (the same answer for an unknown user)',
  ),
  // Not an input problem: a form shows the second step's page instead (auth.routes.ts).
  mfa_required: {
    status: 401,
    doc: 'the password is right and the account asks for its second factor: send `challenge` with a code to POST /auth/login/mfa before `expires_at`',
    detail: 'Enter the code of your authenticator app, or a recovery code.',
    members: (error) => ({
      challenge: error.challenge,
      expires_at: error.expiresAt.toISOString(),
      methods: ['totp', 'recovery_code'],
    }),
  },
});

const passwordAgain = (wrong: string) =>
  passwordRefusals(wrong, 'the password is wrong (counts towards the login limits)');

export const CHANGE_PASSWORD_ERRORS = new ErrorTable<ChangePasswordError>({
  forbidden: scopedTokenForbidden,
  invalid_request: invalidField(),
  ...passwordAgain('The current password is wrong.'),
});

export const DELETE_ACCOUNT_ERRORS = new ErrorTable<DeleteAccountError>({
  forbidden: scopedTokenForbidden,
  ...passwordAgain('The password is wrong.'),
});

export const REVOKE_SESSION_ERRORS = new ErrorTable<
  { readonly type: 'forbidden' } | { readonly type: 'not_found' }
>({
  forbidden: scopedTokenForbidden,
  not_found: {
    status: 404,
    doc: 'no live token of the caller has this jti',
    detail: 'You have no such session.',
  },
});

/** Logout: the presented token's verdict, or a scoped token asking to log out everywhere. */
export const LOGOUT_ERRORS = new ErrorTable<TokenVerdictError | { readonly type: 'forbidden' }>({
  ...tokenVerdicts,
  forbidden: { ...scopedTokenForbidden, doc: 'a token scoped to an L1 server asking to log out everywhere' },
});

export const ATTACH_ERRORS = new ErrorTable<AttachRendererError>({
  forbidden: {
    status: 403,
    doc: [
      'a token scoped to an L1 server',
      'too many L1 servers attached',
      'the L1 server was detached meanwhile',
    ],
    input: true,
    detail: (error) => error.detail,
  },
  invalid_request: {
    status: 400,
    doc: 'the L1 server is refused by the destination rules',
    input: true,
    detail: (error) => error.detail,
    members: (error) => ({ errors: [{ path: 'l1_server', message: error.detail }] }),
  },
  token_revoked: tokenVerdicts.token_revoked,
  rate_limited: rateLimited(
    'Too many changes in a short time. Try again later.',
    "the user's write budget is spent (Retry-After says when to try again)",
  ),
});

/** An L1 server URL the domain cannot normalise (renderers.routes.ts); the schema refuses most before. */
export const L1_SERVER_ERRORS = new ErrorTable<{ readonly type: 'invalid_l1_server' }>({
  invalid_l1_server: {
    status: 400,
    code: 'invalid_request',
    doc: FIELD_RULE_DOC,
    input: true,
    detail: 'l1_server: not a valid L1 server URL.',
    members: () => ({ errors: [{ path: 'l1_server', message: 'Not a valid L1 server URL.' }] }),
  },
});
