// Rule: a signed-in person ends one of their own sessions (or one token scoped to an L1 server) by its jti; a session
// takes the scoped tokens it created with it. The L2 store first, the L1 servers after, as at logout.
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { AuthenticateToken, AuthenticatedToken } from '../../services/authenticate-token.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export class RevokeSession {
  constructor(
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly authenticate: AuthenticateToken,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    jti: string;
  }): Promise<Result<{ revoked: number }, { readonly type: 'forbidden' } | { readonly type: 'not_found' }>> {
    const { session, jti } = input;
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    const now = this.clock.now();
    // Only among the caller's own live tokens: another user's jti, or one already ended, is not found.
    const target = (await this.issuedTokens.listActiveByUser(session.claims.username, now)).find(
      (t) => t.jti === jti,
    );
    if (!target || (await this.authenticate.isRevoked(target.tokenHash))) return err({ type: 'not_found' });
    const dependants = () =>
      target.l1Server === null ? this.issuedTokens.listActiveBySession(target.jti, this.clock.now()) : [];
    let revoked = await this.writer.revoke([target, ...(await dependants())]);
    // A scoped token attached while this was written is caught by looking once more (as logout does).
    revoked += await this.writer.revoke(await dependants());
    return ok({ revoked });
  }
}
