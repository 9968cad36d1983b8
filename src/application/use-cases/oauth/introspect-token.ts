// Rule (API.md §2.2, RFC 7662): a token is active exactly when /auth/verify would accept it from the L1 server named
// as `resource` (RFC 8707); an inactive answer says nothing more. Inactive answers spend the caller's address budget
// (RFC 7662 §2.1: no scanning for live tokens); once it is spent, every introspection from there is refused until
// the window ends, so that a refusal cannot be told apart from a hit.
import { normaliseL1Server } from '../../../domain/l1-server.js';
import { err, ok, type Result } from '../../../domain/result.js';
import type { FailureLimit } from '../../ports/failure-limit.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { VerifyToken } from '../accounts/verify-token.js';

export interface IntrospectionInput {
  readonly token: string;
  /** The calling L1 server's URL, as sent (RFC 8707), or null. */
  readonly resource: string | null;
  /** Whom the budget of inactive answers is counted for. */
  readonly clientAddress: string;
}

export type IntrospectionError = { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

export class IntrospectToken {
  constructor(
    private readonly verify: VerifyToken,
    private readonly failures: FailureLimit,
  ) {}

  /** The token when it is active, null when it is not. */
  async execute(input: IntrospectionInput): Promise<Result<AuthenticatedToken | null, IntrospectionError>> {
    const verdict = await this.failures.check(input.clientAddress);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    // A resource that is no L1 server URL is what /auth/verify refuses (400): nothing is active for it.
    const resource = input.resource === null ? null : normaliseL1Server(input.resource);
    if (resource?.ok !== false) {
      const l1Server = resource === null ? null : resource.value;
      const verified = await this.verify.execute({ token: input.token, l1Server });
      if (verified.ok) return ok(verified.value);
    }
    await this.failures.failed(input.clientAddress);
    return ok(null);
  }
}
