import type { L1ServerUrl } from './l1-server.js';
import { fromSeconds, type TokenClaims } from './token.js';
import type { Username } from './user.js';

/** A revoked token is remembered by its SHA-256 hash until it would have expired; the token itself is never stored. */
export interface RevocationRecord {
  readonly tokenHash: string;
  readonly username: Username;
  readonly expiresAt: Date;
}

/**
 * What an L1 server is told when one of the tokens scoped to it is revoked. It carries no secret; `body` is posted as
 * it is, with a `logout_token` signed when each attempt is sent (logout-token.ts).
 */
export interface RevocationNotice {
  /** The client: `aud` of the logout token. */
  readonly l1Server: L1ServerUrl;
  /**
   * A document client's backchannel_logout_uri (API.md §2.5): the notice is then a form-encoded `logout_token=` POST
   * there, and nothing else. Absent: §2's JSON notice to `<l1_server>/auth/revoke`.
   */
  readonly backchannelLogoutUri?: string;
  /** The revoked token's `sid` (the session that made it): its logout token names it. Absent in jobs queued before. */
  readonly sid?: string | null;
  readonly body: {
    readonly token_hash: string;
    readonly username: Username;
    readonly l2_server: string;
    readonly expires_at: string;
  };
}

/** A token to revoke, with the notice to queue if this revocation is new (only scoped tokens have one). */
export interface Revocation {
  readonly record: RevocationRecord;
  readonly notice: RevocationNotice | null;
}

/** A token this service issued, remembered so that logout can find a session's scoped tokens. */
export interface IssuedToken {
  readonly tokenHash: string;
  readonly jti: string;
  readonly username: Username;
  readonly sessionJti: string | null;
  readonly l1Server: L1ServerUrl | null;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  /**
   * Set when the token was issued to a document client (API.md §2.5): the backchannel_logout_uri its document had
   * then (null without one: no notice at all). Absent for every other token, whose revocation §2's JSON notice tells.
   */
  readonly documentClient?: DocumentClientLogout;
}

/** What a document client's token remembers of its document: where its revocation is told. */
export interface DocumentClientLogout {
  readonly backchannelLogoutUri: string | null;
}

/** The record of a token, from its claims and the hash of the token string. */
export function issuedTokenOf(claims: TokenClaims, tokenHash: string): IssuedToken {
  return {
    tokenHash,
    jti: claims.jti,
    username: claims.username,
    sessionJti: claims.sid ?? null,
    l1Server: claims.l1_server ?? null,
    issuedAt: fromSeconds(claims.iat),
    expiresAt: fromSeconds(claims.exp),
  };
}

export function revocationOf(token: IssuedToken, l2Server: string): Revocation {
  const record = { tokenHash: token.tokenHash, username: token.username, expiresAt: token.expiresAt };
  const logoutUri = token.documentClient?.backchannelLogoutUri;
  const notice =
    token.l1Server === null || logoutUri === null
      ? null
      : {
          l1Server: token.l1Server,
          ...(logoutUri === undefined ? {} : { backchannelLogoutUri: logoutUri }),
          sid: token.sessionJti,
          body: {
            token_hash: token.tokenHash,
            username: token.username,
            l2_server: l2Server,
            expires_at: token.expiresAt.toISOString(),
          },
        };
  return { record, notice };
}
