// Rule (API.md §2.2 as §2.5 changes it, RFC 7662): the audience is `resource` (RFC 8707) when given, else the client
// the caller authenticates as, else none; a secret is refused from every caller. A scoped token is active only for an audience equal to its l1_server; a
// session token only when there is no audience — an L1 server never accepts a person's L2 session. Otherwise a
// token is active exactly when /auth/verify would accept it; an inactive answer says nothing more. A token this
// service signed always gets its true answer however many answers the caller's address had: an L1 server
// introspects for all its users from one address, and none of them may be locked out by another's garbage (issue
// 33). Only tokens that do not verify spend the address's budget (RFC 7662 §2.1), and past it such a token is
// refused (429) until the window ends. Hiding a hit among refusals buys nothing: a token is an HMAC under a 256-bit
// secret, which no scan finds.
import { secretRefusal, type ClientCredentials } from '../../../domain/client-authentication.js';
import { normaliseL1Server } from '../../../domain/l1-server.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { FailureLimit } from '../../ports/failure-limit.js';
import type { AuthenticateToken, AuthenticatedToken } from '../../services/authenticate-token.js';
import type {
  ClientAuthentication,
  ClientAuthenticationError,
} from '../../services/client-authentication.js';
import type { VerifyToken } from '../accounts/verify-token.js';

export interface IntrospectionInput {
  readonly token: string;
  /** The calling L1 server's URL, as sent (RFC 8707), or null. */
  readonly resource: string | null;
  /** Who the caller says it is (API.md §2.5): its client is the audience when `resource` is absent. */
  readonly client: ClientCredentials;
  /** Whom the budget of tokens that do not verify is counted for. */
  readonly clientAddress: string;
}

export type IntrospectionError =
  { readonly type: 'rate_limited'; readonly retryAfterSeconds: number } | ClientAuthenticationError;

/** The URL a client assertion may name as its audience here. */
const INTROSPECTION_PATH = '/oauth/introspect';

export class IntrospectToken {
  constructor(
    private readonly verify: VerifyToken,
    private readonly authenticate: AuthenticateToken,
    private readonly failures: FailureLimit,
    private readonly clients: ClientAuthentication,
    private readonly base: string,
  ) {}

  /** The token when it is active, null when it is not. */
  async execute(input: IntrospectionInput): Promise<Result<AuthenticatedToken | null, IntrospectionError>> {
    const client = await this.audienceClient(input);
    if (!client.ok) return client;
    const named = input.resource ?? client.value?.clientId ?? null;
    // An audience that is no L1 server URL is what /auth/verify refuses (400): nothing is active for it, and only
    // the signature (no store read) decides whether the token spends the budget.
    const audience = named === null ? null : normaliseL1Server(named);
    const verdict =
      audience?.ok === false
        ? this.authenticate.decodeUnexpired(input.token)
        : await this.verify.execute({
            token: input.token,
            l1Server: audience === null ? null : audience.value,
          });
    if (verdict.ok) {
      if (audience === null) return ok(verdict.value);
      return ok(audience.ok && isScoped(verdict.value.claims) ? verdict.value : null);
    }
    if (verdict.error.type !== 'token_invalid') return ok(null);
    return this.notVerified(input.clientAddress);
  }

  /**
   * The client that is the audience: none when `resource` names it (the client is then not looked up, as §2.2 had
   * it — only a secret is refused, for every caller), else the client the caller authenticates as.
   */
  private async audienceClient(input: IntrospectionInput) {
    if (input.resource === null)
      return this.clients.authenticate(input.client, `${this.base}${INTROSPECTION_PATH}`);
    const secret = secretRefusal(input.client);
    return secret === null
      ? ok(null)
      : err<ClientAuthenticationError>({ type: 'invalid_client', detail: secret });
  }

  /** Inactive, counted against the address — or refused, once the address has had its budget of them. */
  private async notVerified(clientAddress: string): Promise<Result<null, IntrospectionError>> {
    const spent = await this.failures.check(clientAddress);
    if (spent.limited) return err({ type: 'rate_limited', retryAfterSeconds: spent.retryAfterSeconds });
    await this.failures.failed(clientAddress);
    return ok(null);
  }
}
