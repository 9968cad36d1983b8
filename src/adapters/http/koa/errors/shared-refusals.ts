// Entries several error tables share, so that one refusal reads the same wherever it is met.
import type { TokenVerdictError } from '../../../../domain/token.js';
import { ErrorTable, type Entries, type Refusal } from './error-table.js';

type FieldError = { readonly path: string; readonly message: string };

/** How /openapi.json words a field refusal, the same from every table, so that a route lists it once. */
export const FIELD_RULE_DOC = 'a field breaks its rule (see `errors`)';

/** A field that fails a rule, with the field named as API.md's validation errors do; a form shows it again. */
export const invalidField = <E extends FieldError & { readonly others?: readonly FieldError[] }>(
  doc = FIELD_RULE_DOC,
): Refusal<E, unknown> => ({
  status: 400,
  doc,
  input: true,
  detail: (error) => `${error.path}: ${error.message}`,
  members: (error) => ({
    errors: [{ path: error.path, message: error.message }, ...(error.others ?? [])],
  }),
});

/** 429 with the Retry-After the limit computed; a form shows its message again. */
export const rateLimited = <E extends { readonly retryAfterSeconds: number }>(
  detail: string,
  doc: string,
): Refusal<E, unknown> => ({
  status: 429,
  doc,
  detail,
  input: true,
  headers: (error) => ({ 'Retry-After': String(error.retryAfterSeconds) }),
});

export const SCOPED_TOKEN_DETAIL = 'A token scoped to an L1 server cannot do this; use your own session.';

/** A token scoped to an L1 server doing what only the user's own session may. */
export const scopedTokenForbidden: Refusal<unknown, unknown> = {
  status: 403,
  doc: 'a token scoped to an L1 server',
  detail: SCOPED_TOKEN_DETAIL,
};

/** The refusal of a session-only action (listing sessions or renderers, detaching) to a scoped token. */
export const SCOPED_TOKEN = new ErrorTable<{ readonly type: 'forbidden' }>({
  forbidden: scopedTokenForbidden,
});

/** A token verdict: 401, whatever the token was presented for. */
const verdict = (doc: string, detail: string): Refusal<unknown, unknown> => ({ status: 401, doc, detail });

/** The token verdicts. A detail reveals nothing from the token itself (RFC 7662 §2.2: an inactive token gets none). */
export const tokenVerdicts: Entries<TokenVerdictError, unknown> = {
  token_invalid: verdict('the token is malformed or not signed by this service', 'The token is not valid.'),
  token_expired: verdict('the token has expired', 'The token has expired.'),
  token_revoked: verdict('the token was revoked', 'The token has been revoked.'),
  token_scope_mismatch: verdict(
    'the token is scoped to another L1 server',
    'The token is scoped to another L1 server.',
  ),
};
