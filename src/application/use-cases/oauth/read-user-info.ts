// Rule (API.md §2.5, OpenID Connect Core §5.3): UserInfo answers, for an access token from /oauth/token whose scope
// has `openid`, who the person is (`sub`) and, when `profile` was granted, the profile claims. The token is checked
// as /auth/verify checks it — signature, expiry, the revocation records — and a session token, a renderer-attach
// token or a token without `openid` is no UserInfo token.
import { scopeHas, type ProfileClaims } from '../../../domain/openid.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { TokenVerdictError } from '../../../domain/token.js';
import type { AuthenticateToken } from '../../services/authenticate-token.js';
import type { OpenIdClaims } from '../../services/openid-claims.js';

export type UserInfo = { readonly sub: string } & Partial<ProfileClaims>;

export class ReadUserInfo {
  constructor(
    private readonly authenticate: AuthenticateToken,
    private readonly claims: OpenIdClaims,
  ) {}

  async execute(token: string): Promise<Result<UserInfo, TokenVerdictError>> {
    const decoded = this.authenticate.decodeUnexpired(token);
    if (!decoded.ok) return decoded;
    const { claims, tokenHash } = decoded.value;
    if (claims.l1_server === undefined || !scopeHas(claims.scope, 'openid'))
      return err({ type: 'token_invalid' });
    if (await this.authenticate.isRevoked(tokenHash)) return err({ type: 'token_revoked' });
    if (!scopeHas(claims.scope, 'profile')) return ok({ sub: claims.sub });
    const profile = await this.claims.profile(claims.username);
    return profile ? ok({ sub: claims.sub, ...profile }) : err({ type: 'token_revoked' });
  }
}
