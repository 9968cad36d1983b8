// Refusals of the HTTP edge itself, before or around any use-case: the body parser, field validation, CSRF, content
// negotiation, list queries — and the 503s a few routes document because callers must plan for them.
import { ErrorTable, refusals } from './error-table.js';
import { FIELD_RULE_DOC } from './shared-refusals.js';

/** A body the parser refuses; `detail` says which limit or type, as it knows best. */
export type BodyError = {
  readonly [T in BodyRefusal]: { readonly type: T; readonly detail: string };
}[BodyRefusal];
type BodyRefusal = 'malformed_body' | 'payload_too_large' | 'unsupported_media_type';

const bodyErrors = (docs: Record<BodyRefusal, string>) =>
  new ErrorTable<BodyError>({
    malformed_body: {
      status: 400,
      code: 'invalid_request',
      doc: docs.malformed_body,
      detail: (e) => e.detail,
    },
    payload_too_large: { status: 413, doc: docs.payload_too_large, detail: (e) => e.detail },
    unsupported_media_type: { status: 415, doc: docs.unsupported_media_type, detail: (e) => e.detail },
  });

/** The JSON or form body every POST, PATCH and DELETE may carry (body-middleware.ts). */
export const BODY_ERRORS = bodyErrors({
  malformed_body: 'the body is not valid JSON, or could not be read',
  payload_too_large: 'the body is over 64 KiB',
  unsupported_media_type: 'the body is neither JSON nor a form',
});

/** An activity posted to an inbox. */
export const INBOX_BODY_ERRORS = bodyErrors({
  malformed_body: 'the body is not JSON',
  payload_too_large: 'the body is over 256 KiB',
  unsupported_media_type: 'the body is not application/activity+json or application/ld+json',
});

/** Fields that fail the request schema (validate.ts), every one of them named in `errors`. */
export const VALIDATION_ERRORS = new ErrorTable<{
  readonly type: 'invalid_request';
  readonly errors: readonly { readonly path: string; readonly message: string }[];
}>({
  invalid_request: {
    status: 400,
    doc: FIELD_RULE_DOC,
    input: true,
    detail: ({ errors: [first] }) => (first ? `${first.path}: ${first.message}` : 'The request is invalid.'),
    members: (error) => ({ errors: error.errors }),
  },
});

/** A body the route reads and validates: the parser's refusals and the schema's. */
export const JSON_BODY = [BODY_ERRORS, VALIDATION_ERRORS] as const;

export const CSRF_ERRORS = new ErrorTable<{ readonly type: 'csrf_failed' }>({
  csrf_failed: {
    status: 403,
    doc: 'a form, or a request authenticated by the cookie, without its CSRF token',
    detail: 'The form has expired or did not come from this site. Reload it and try again.',
  },
});

export const NOT_ACCEPTABLE = new ErrorTable<{ readonly type: 'not_acceptable'; readonly offered: string }>({
  not_acceptable: {
    status: 406,
    doc: 'Accept names none of the representations the route has',
    detail: (error) => `This resource is available as ${error.offered}.`,
  },
});

/** A query a list route cannot read (listing.ts): a parameter given twice, a bad limit or cursor. */
export const QUERY_ERRORS = new ErrorTable<{
  readonly type: 'invalid_query';
  readonly detail: string;
  readonly field?: { readonly path: string; readonly message: string };
}>({
  invalid_query: {
    status: 400,
    code: 'invalid_request',
    doc: 'a bad limit or cursor, or a query parameter given twice',
    detail: (error) => error.detail,
    members: (error) => (error.field ? { errors: [error.field] } : {}),
  },
});

/** Registration makes a key pair and hashes a password: both wait in bounded lines (the error middleware's 503). */
export const OVERLOADED = refusals({
  status: 503,
  code: 'unavailable',
  doc: 'too many key pairs being generated or passwords being hashed now (Retry-After says when to try again)',
});

/** /auth/verify fails closed: without the revocation records it answers no (the error middleware's 503). */
export const REVOCATIONS_UNREADABLE = refusals({
  status: 503,
  code: 'unavailable',
  doc: 'the revocation records cannot be read (fails closed)',
});

/** The operators' routes: /readyz while the store does not answer, /metrics without METRICS_TOKEN when it is set. */
export const OPS_ERRORS = new ErrorTable<
  | { readonly type: 'store_unreachable' }
  | { readonly type: 'tlog_checking' }
  | { readonly type: 'tlog_inconsistent' }
  | { readonly type: 'metrics_token_missing' }
>({
  store_unreachable: {
    status: 503,
    code: 'unavailable',
    doc: 'the store does not answer',
    detail: 'The store does not answer.',
    headers: () => ({ 'Retry-After': '5' }),
  },
  tlog_checking: {
    status: 503,
    code: 'unavailable',
    doc: 'the start-up check of the transparency log (every stored activity against its hashes) is still running',
    detail: 'The transparency log is being checked. Try again shortly.',
    headers: () => ({ 'Retry-After': '5' }),
  },
  tlog_inconsistent: {
    status: 503,
    code: 'unavailable',
    doc: 'the stored activities no longer match what the transparency log signed: nothing is signed, writes are refused (the error log says why)',
    detail: 'The stored activity log no longer matches its signed checkpoint. An operator must look at it.',
  },
  metrics_token_missing: {
    status: 401,
    code: 'unauthenticated',
    doc: 'METRICS_TOKEN is set and the request does not carry it',
    detail: 'These metrics need the metrics token.',
    headers: () => ({ 'WWW-Authenticate': 'Bearer realm="metrics"' }),
  },
});
