// POST /oauth/introspect's answers (API.md §2.2, RFC 7662 §2.2), shared by its Koa route and its hot path.
import { methodsOf } from '../../../domain/sign-in-methods.js';
import type { TokenClaims } from '../../../domain/token.js';
import { JSON_CONTENT_TYPE } from '../content-types.js';
import type { Answer } from './answers.js';

export const INTROSPECTION_ROUTE = '/oauth/introspect';

/** An active token: the claims an L1 server needs, named as RFC 7662 and RFC 9068 name them. */
export const activeJson = (claims: TokenClaims) => ({
  active: true,
  sub: claims.sub,
  username: claims.username,
  iss: claims.iss,
  ...(claims.l1_server === undefined ? {} : { aud: claims.l1_server }),
  exp: claims.exp,
  iat: claims.iat,
  jti: claims.jti,
  ...(claims.sid === undefined ? {} : { sid: claims.sid }),
  // RFC 8176: how the session signed in (a scoped token carries its session's), so an L1 can ask for more.
  amr: methodsOf(claims),
  token_type: 'Bearer',
  l2_server: claims.l2_server,
});

const answer = (body: unknown): Answer => ({
  route: INTROSPECTION_ROUTE,
  contentType: JSON_CONTENT_TYPE,
  headers: [['Cache-Control', 'no-store']],
  body: JSON.stringify(body),
});

export const activeAnswer = (claims: TokenClaims): Answer => answer(activeJson(claims));

/** Inactive, and nothing else (RFC 7662 §2.2): not why, not whose. */
export const INACTIVE_ANSWER: Answer = answer({ active: false });
