// Rule: a signed-in person sees where they are signed in: every unexpired, unrevoked token of theirs (sessions and
// tokens scoped to L1 servers), newest first, the one they are using marked as current.
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { AuthenticateToken, AuthenticatedToken } from '../../services/authenticate-token.js';

export interface SessionView {
  readonly jti: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  readonly l1Server: L1ServerUrl | null;
  readonly current: boolean;
}

export class ListSessions {
  constructor(
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly authenticate: AuthenticateToken,
    private readonly clock: Clock,
  ) {}

  async execute(session: AuthenticatedToken): Promise<Result<SessionView[], { readonly type: 'forbidden' }>> {
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const tokens = await this.issuedTokens.listActiveByUser(session.claims.username, this.clock.now());
    const revoked = await Promise.all(tokens.map((token) => this.authenticate.isRevoked(token.tokenHash)));
    return ok(
      tokens
        .filter((_, i) => !revoked[i])
        .sort((a, b) => b.issuedAt.getTime() - a.issuedAt.getTime() || (a.jti < b.jti ? 1 : -1))
        .map((token) => ({
          jti: token.jti,
          issuedAt: token.issuedAt,
          expiresAt: token.expiresAt,
          l1Server: token.l1Server,
          current: token.jti === session.claims.jti,
        })),
    );
  }
}
