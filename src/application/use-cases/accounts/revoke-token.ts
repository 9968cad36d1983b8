// Rule (logout): the presented token, every scoped token its session created and — with `everywhere` — every
// unexpired token of the user are revoked in the L2 store first; the L1 servers are notified afterwards. A token
// scoped to one L1 server can revoke itself, but not log the user out everywhere.
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped, type TokenVerdictError } from '../../../domain/token.js';
import { issuedTokenOf } from '../../../domain/revocation.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { AuthenticateToken } from '../../services/authenticate-token.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export interface RevokeTokenInput {
  readonly token: string;
  readonly everywhere: boolean;
}

export class RevokeToken {
  constructor(
    private readonly authenticate: AuthenticateToken,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  async execute(
    input: RevokeTokenInput,
  ): Promise<Result<{ revoked: number }, TokenVerdictError | { readonly type: 'forbidden' }>> {
    // An already revoked token may log out again (answering 0); an invalid or expired one may not.
    const presented = this.authenticate.decodeUnexpired(input.token);
    if (!presented.ok) return err(presented.error);
    const { claims, tokenHash } = presented.value;
    if (input.everywhere && isScoped(claims)) return err({ type: 'forbidden' });
    const now = this.clock.now();

    const self = issuedTokenOf(claims, tokenHash);
    const dependants = () =>
      input.everywhere
        ? this.issuedTokens.listActiveByUser(claims.username, now)
        : this.issuedTokens.listActiveBySession(claims.jti, now);

    let revoked = await this.writer.revoke([self, ...(await dependants())]);
    // An attach may have recorded a scoped token after that list was read but before our revocation committed;
    // looking once more catches it. One attach later than this sees the revoked session itself (AttachRenderer
    // re-checks after recording), so between the two no scoped token outlives its session.
    revoked += await this.writer.revoke(await dependants());
    return ok({ revoked });
  }
}
