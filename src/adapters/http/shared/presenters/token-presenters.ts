// A token's verdict, as an L1 server reads it: POST /auth/verify's answer (API.md §1) and POST /oauth/introspect's
// (API.md §2.2, RFC 7662 §2.2). Both front ends send these, serialised by hot-paths/answers.ts: no zod here, and
// nothing made beyond the body itself (the hot paths' cost is docs/performance.md's).
import { methodsOf } from '../../../../domain/sign-in-methods.js';
import { expiresAt, type TokenClaims } from '../../../../domain/token.js';
import type { IntrospectionResponse } from '../oauth-schemas.js';
import type { VerifyResponse } from '../schemas.js';
import type { Presented } from './presented.js';

export type VerifyJson = Presented<typeof VerifyResponse>;
export type IntrospectionJson = Presented<typeof IntrospectionResponse>;

/** The token is valid (API.md §1). */
export const verifiedJson = (claims: TokenClaims): VerifyJson => ({
  valid: true,
  username: claims.username,
  l2_server: claims.l2_server,
  l1_server: claims.l1_server ?? null,
  expires_at: expiresAt(claims).toISOString(),
  amr: methodsOf(claims),
});

/** An active token: the claims an L1 server needs, named as RFC 7662 and RFC 9068 name them. */
export const activeJson = (claims: TokenClaims): IntrospectionJson => ({
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

/** Inactive, and nothing else (RFC 7662 §2.2): not why, not whose. */
export const INACTIVE_JSON: IntrospectionJson = { active: false };
