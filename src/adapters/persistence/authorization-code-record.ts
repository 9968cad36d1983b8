// One spelling of an authorization code as the stores hold it: JSON with dates as epoch milliseconds, read back
// into the domain's record. The memory and SQLite stores keep this text; MongoDB keeps the same fields.
import type { L1ServerUrl } from '../../domain/l1-server.js';
import type { AuthorizationCode } from '../../domain/oauth.js';
import type { OpenIdGrant } from '../../domain/openid.js';
import type { IssuedToken } from '../../domain/revocation.js';
import type { TokenClaims } from '../../domain/token.js';
import type { Username } from '../../domain/user.js';

interface StoredIssuedToken extends Omit<IssuedToken, 'issuedAt' | 'expiresAt'> {
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** The code's fields, dates as epoch milliseconds. */
export interface StoredAuthorizationCode {
  readonly codeHash: string;
  readonly username: string;
  readonly session: TokenClaims;
  readonly sessionTokenHash: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly expiresAt: number;
  readonly usedAt: number | null;
  readonly issued: StoredIssuedToken | null;
  /** Absent from codes stored before OpenID Connect (API.md §2.5): read as null. */
  readonly openid?: OpenIdGrant | null;
}

export const storedIssuedToken = (token: IssuedToken): StoredIssuedToken => ({
  ...token,
  issuedAt: token.issuedAt.getTime(),
  expiresAt: token.expiresAt.getTime(),
});

export function storedAuthorizationCode(code: AuthorizationCode): StoredAuthorizationCode {
  return {
    ...code,
    expiresAt: code.expiresAt.getTime(),
    usedAt: code.usedAt?.getTime() ?? null,
    issued: code.issued && storedIssuedToken(code.issued),
  };
}

export function authorizationCodeOf(stored: StoredAuthorizationCode): AuthorizationCode {
  const { issued } = stored;
  return {
    ...stored,
    username: stored.username as Username,
    clientId: stored.clientId as L1ServerUrl,
    session: { ...stored.session },
    openid: stored.openid ?? null,
    expiresAt: new Date(stored.expiresAt),
    usedAt: stored.usedAt === null ? null : new Date(stored.usedAt),
    issued: issued && {
      ...issued,
      issuedAt: new Date(issued.issuedAt),
      expiresAt: new Date(issued.expiresAt),
    },
  };
}
