// Rule (API.md §2.5, RFC 7009): a client revokes a token scoped to it as a detach would (the record first, its
// notice after). A token that is unknown, invalid, expired or already revoked answers the same as a revoked one and
// changes nothing; a valid token of another client, or a person's session token, is refused and nothing is revoked.
import type { ClientCredentials } from '../../../domain/client-authentication.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { issuedTokenOf } from '../../../domain/revocation.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { AuthenticateToken } from '../../services/authenticate-token.js';
import type {
  ClientAuthentication,
  ClientAuthenticationError,
} from '../../services/client-authentication.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export interface TokenRevocationInput {
  readonly token: string;
  readonly client: ClientCredentials;
}

export type TokenRevocationError =
  ClientAuthenticationError | { readonly type: 'unauthorized_client'; readonly detail: string };

const REVOCATION_PATH = '/oauth/revoke';

export class RevokeClientToken {
  constructor(
    private readonly clients: ClientAuthentication,
    private readonly authenticate: AuthenticateToken,
    private readonly writer: RevocationWriter,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly clock: Clock,
    private readonly base: string,
  ) {}

  /** Answers how many tokens were newly revoked (0 or 1). */
  async execute(input: TokenRevocationInput): Promise<Result<number, TokenRevocationError>> {
    const client = await this.clients.authenticate(input.client, `${this.base}${REVOCATION_PATH}`);
    if (!client.ok) return client;
    if (client.value === null)
      return err({ type: 'invalid_client', detail: 'The client must identify itself (client_id).' });
    const decoded = this.authenticate.decodeUnexpired(input.token);
    if (!decoded.ok) return ok(0);
    const { claims, tokenHash } = decoded.value;
    if (claims.l1_server !== client.value.clientId) {
      return err({
        type: 'unauthorized_client',
        detail:
          claims.l1_server === undefined
            ? 'A session token cannot be revoked by a client.'
            : 'The token was issued to another client.',
      });
    }
    // Already revoked: nothing happens (the writer would queue nothing either; this spares the write).
    if (await this.authenticate.isRevoked(tokenHash)) return ok(0);
    // The record as issued: a document client's token says where its revocation is told (API.md §2.5).
    const recorded = (
      await this.issuedTokens.listActiveScoped(claims.username, client.value.clientId, this.clock.now())
    ).find((token) => token.tokenHash === tokenHash);
    return ok(await this.writer.revoke([recorded ?? issuedTokenOf(claims, tokenHash)]));
  }
}
