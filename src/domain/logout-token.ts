// API.md §2.4: every revocation notice carries a `logout_token`, an OpenID Connect Back-Channel Logout 1.0 token
// that the L1 server can check against L2's published keys, so that a notice no longer has to be taken on trust.
import type { RevocationNotice } from './revocation.js';
import { toSeconds } from './token.js';

/** The member of `events` that makes a JWT a back-channel logout token (OIDC Back-Channel Logout 1.0 §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The JOSE `typ` of a logout token (OIDC Back-Channel Logout 1.0 §2.4, RFC 8725 §3.11). */
export const LOGOUT_TOKEN_TYPE = 'logout+jwt';

/**
 * A logout token is signed afresh for every delivery attempt, so it only needs to outlive one attempt (10 s) and the
 * clock skew between the two servers.
 */
export const LOGOUT_TOKEN_LIFETIME_SECONDS = 120;

/** The claims of a logout token; `expires_at` is a NumericDate like every JWT time claim (API.md §0). */
export interface LogoutTokenClaims {
  readonly iss: string;
  readonly aud: string;
  readonly iat: number;
  readonly exp: number;
  /** The notice's id: the same on every attempt, so the L1 server runs its hook once per notice. */
  readonly jti: string;
  readonly sub: string;
  readonly sid?: string;
  readonly events: { readonly [BACKCHANNEL_LOGOUT_EVENT]: Record<string, never> };
  readonly token_hash: string;
  readonly expires_at: number;
}

/**
 * The claims of the logout token for one attempt at `now`. Its `jti` is the revoked token's hash: one token is
 * revoked once and is scoped to one L1 server, so its hash names exactly one notice — across attempts, restarts and
 * instances, and for notices queued before logout tokens existed. No `nonce`: the specification forbids one.
 */
export function logoutTokenClaims(notice: RevocationNotice, now: Date): LogoutTokenClaims {
  const iat = toSeconds(now);
  const { body } = notice;
  return {
    iss: body.l2_server,
    aud: notice.l1Server,
    iat,
    exp: iat + LOGOUT_TOKEN_LIFETIME_SECONDS,
    jti: body.token_hash,
    sub: body.username,
    ...(notice.sid ? { sid: notice.sid } : {}),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    token_hash: body.token_hash,
    expires_at: toSeconds(new Date(body.expires_at)),
  };
}
