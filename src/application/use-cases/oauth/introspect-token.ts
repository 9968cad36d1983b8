// Rule (API.md §2.2, RFC 7662): a token is active exactly when /auth/verify would accept it from the L1 server named
// as `resource` (RFC 8707); an inactive answer says nothing more. A token this service signed always gets its true
// answer — active, or inactive because it expired, was revoked or is scoped elsewhere — however many answers the
// caller's address had: an L1 server introspects for all its users from one address, and none of them may be locked
// out by another's garbage (issue 33). Only tokens that do not verify spend the address's budget (RFC 7662 §2.1),
// and past it such a token is refused (429) until the window ends. Hiding a hit among refusals buys nothing: a token
// is an HMAC under a 256-bit secret, which no scan finds.
import { normaliseL1Server } from '../../../domain/l1-server.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { FailureLimit } from '../../ports/failure-limit.js';
import type { AuthenticateToken, AuthenticatedToken } from '../../services/authenticate-token.js';
import type { VerifyToken } from '../accounts/verify-token.js';

export interface IntrospectionInput {
  readonly token: string;
  /** The calling L1 server's URL, as sent (RFC 8707), or null. */
  readonly resource: string | null;
  /** Whom the budget of tokens that do not verify is counted for. */
  readonly clientAddress: string;
}

export type IntrospectionError = { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class IntrospectToken {
  constructor(
    private readonly verify: VerifyToken,
    private readonly authenticate: AuthenticateToken,
    private readonly failures: FailureLimit,
  ) {}

  /** The token when it is active, null when it is not. */
  async execute(input: IntrospectionInput): Promise<Result<AuthenticatedToken | null, IntrospectionError>> {
    // A resource that is no L1 server URL is what /auth/verify refuses (400): nothing is active for it, and only
    // the signature (no store read) decides whether the token spends the budget.
    const resource = input.resource === null ? null : normaliseL1Server(input.resource);
    const verdict =
      resource?.ok === false
        ? this.authenticate.decodeUnexpired(input.token)
        : await this.verify.execute({
            token: input.token,
            l1Server: resource === null ? null : resource.value,
          });
    if (verdict.ok) return ok(resource?.ok === false ? null : verdict.value);
    if (verdict.error.type !== 'token_invalid') return ok(null);
    return this.notVerified(input.clientAddress);
  }

  /** Inactive, counted against the address — or refused, once the address has had its budget of them. */
  private async notVerified(clientAddress: string): Promise<Result<null, IntrospectionError>> {
    const spent = await this.failures.check(clientAddress);
    if (spent.limited) return err({ type: 'rate_limited', retryAfterSeconds: spent.retryAfterSeconds });
    await this.failures.failed(clientAddress);
    return ok(null);
  }
}
