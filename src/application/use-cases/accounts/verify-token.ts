// Rule (called by L1 servers): a token verifies when it is valid, unexpired, not revoked in this service's own
// store, and — if scoped — presented by the L1 server it is scoped to.
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import { err, type Result } from '../../../domain/result.js';
import { checkScope, type TokenVerdictError } from '../../../domain/token.js';
import type { AuthenticateToken, AuthenticatedToken } from '../../services/authenticate-token.js';

export interface VerifyTokenInput {
  readonly token: string;
  /** The requesting L1 server in canonical form, or null when it did not say. */
  readonly l1Server: L1ServerUrl | null;
}

export class VerifyToken {
  constructor(private readonly authenticate: AuthenticateToken) {}

  async execute(input: VerifyTokenInput): Promise<Result<AuthenticatedToken, TokenVerdictError>> {
    const decoded = this.authenticate.decodeUnexpired(input.token);
    if (!decoded.ok) return decoded;
    // Scope first: a mismatch needs no store read.
    const scope = checkScope(decoded.value.claims, input.l1Server);
    if (!scope.ok) return scope;
    return (await this.authenticate.isRevoked(decoded.value.tokenHash))
      ? err({ type: 'token_revoked' })
      : decoded;
  }
}
