// POST /oauth/introspect's answers (API.md §2.2, RFC 7662 §2.2), shared by its Koa route and its hot path; the
// bodies are the presenters of shared/presenters/token-presenters.ts.
import { JSON_CONTENT_TYPE } from '../content-types.js';
import { activeJson, INACTIVE_JSON, type IntrospectionJson } from '../shared/presenters/token-presenters.js';
import type { TokenClaims } from '../../../domain/token.js';
import type { Answer } from './answers.js';

export const INTROSPECTION_ROUTE = '/oauth/introspect';

const answer = (body: IntrospectionJson): Answer => ({
  route: INTROSPECTION_ROUTE,
  contentType: JSON_CONTENT_TYPE,
  headers: [['Cache-Control', 'no-store']],
  body: JSON.stringify(body),
});

export const activeAnswer = (claims: TokenClaims): Answer => answer(activeJson(claims));

/** Inactive, and nothing else (RFC 7662 §2.2): not why, not whose. */
export const INACTIVE_ANSWER: Answer = answer(INACTIVE_JSON);
