// The federation's error unions as HTTP answers (API.md §4–§5): public actors, inboxes, webfinger.
import type { PublicActorError } from '../../../../application/use-cases/accounts/get-public-actor.js';
import type { InboxError } from '../../../../application/use-cases/federation/receive-activity.js';
import type { UpdateProfileError } from '../../../../application/use-cases/accounts/update-profile.js';
import { ErrorTable } from './error-table.js';
import { invalidField, rateLimited, SCOPED_TOKEN_DETAIL, scopedTokenForbidden } from './shared-refusals.js';

/** A public actor that cannot be shown: unknown (404), or deleted or disabled (410). */
export const PUBLIC_ACTOR_ERRORS = new ErrorTable<PublicActorError>({
  not_found: { status: 404, doc: 'no such user', detail: 'There is no such user.' },
  gone: { status: 410, doc: 'the account was deleted', detail: 'This account has been deleted.' },
  disabled: {
    status: 410,
    code: 'gone',
    doc: 'the account is disabled',
    detail: 'This account is disabled.',
  },
});

/**
 * What a peer is told when its signature is refused — always the same words: the precise reason ("the key's server
 * refused the connection", "answered 404") would let anyone use the inbox to scan ports and names. Operators see the
 * reason in the log and the `l2_inbox_refusals_total` metric.
 */
export const SIGNATURE_REFUSED_DETAIL =
  'The HTTP signature could not be verified. Sign with the actor’s own key, over (request-target), host, date ' +
  'and digest (or RFC 9421 with content-digest), dated within 5 minutes.';
/** What a server L2 does not federate with is told (API.md §4.3): one fixed detail, whatever the rule. */
export const NOT_FEDERATING_DETAIL = 'this server does not federate with yours';
export const INBOX_RETRY_DETAIL = 'This activity could not be checked now; send it again later.';

const retryAfter = (error: { readonly retryAfterSeconds: number }) => ({
  'Retry-After': String(error.retryAfterSeconds),
});

/** An inbox refusal: 401 carries the signature challenge peers read. */
export const INBOX_ERRORS = new ErrorTable<InboxError>({
  invalid_request: {
    status: 400,
    doc: 'not an object, no type or actor; a follower without an inbox',
    detail: (error) => error.message,
  },
  not_found: { status: 404, doc: 'no such user', detail: 'There is no such user.' },
  gone: { status: 410, doc: 'the account was deleted', detail: 'This account has been deleted.' },
  forbidden: {
    status: 403,
    doc:
      'the actor or the signature’s key is on a domain the operator blocked (or, in allowlist mode, did not ' +
      'allow); checked first, signed or not; nothing was fetched or stored',
    detail: NOT_FEDERATING_DETAIL,
  },
  unauthenticated: {
    status: 401,
    doc:
      'unsigned, bad signature or digest, stale Date, unknown key, signer is not the actor (one fixed detail for ' +
      'every case; the reason is in the operator’s log)',
    detail: SIGNATURE_REFUSED_DETAIL,
    headers: () => ({
      'WWW-Authenticate': 'Signature realm="inbox",headers="(request-target) host date digest"',
    }),
  },
  unavailable: {
    status: 503,
    doc: 'the signer’s key or the follower’s actor cannot be fetched now; send again after Retry-After',
    detail: INBOX_RETRY_DETAIL,
    headers: retryAfter,
  },
  rate_limited: {
    status: 429,
    doc:
      'this client named too many unknown keys, or a Follow beyond the budget of its actor or its server, or ' +
      'while too many Accepts wait for its server; nothing was stored; send again after Retry-After',
    detail: (error) => error.message,
    headers: retryAfter,
  },
});

export const WEBFINGER_ERRORS = new ErrorTable<
  { readonly type: 'invalid_request'; readonly detail: string } | { readonly type: 'not_found' }
>({
  invalid_request: { status: 400, doc: 'missing or malformed resource', detail: (error) => error.detail },
  not_found: { status: 404, doc: 'another domain or an unknown user', detail: 'No such account here.' },
});

/** A profile change (PATCH /users/{u}): only the user themself, with their own session, within their budget. */
export const PROFILE_ERRORS = new ErrorTable<UpdateProfileError>({
  not_found: { status: 404, doc: 'no such user', detail: 'There is no such user.' },
  forbidden: {
    status: 403,
    doc: ['another user’s profile', scopedTokenForbidden.doc as string],
    detail: (error) =>
      error.reason === 'scoped_token'
        ? SCOPED_TOKEN_DETAIL
        : 'Only the user themself can change this profile.',
  },
  invalid_request: invalidField(),
  rate_limited: rateLimited(
    'Too many changes in a short time. Try again later.',
    'the per-user budget of writes is used up (see Retry-After)',
  ),
});
