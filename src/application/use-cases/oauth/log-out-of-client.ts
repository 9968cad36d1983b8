// Rule (API.md §2.5, RP-initiated logout): the person's decision ends every unexpired token scoped to the client
// that one session created — the session the ID-token hint names (its `sid`, for its person), or without a hint the
// browser's own — through the revocation writer: the records first, the notices after. Other clients' tokens, the
// session itself and the attachment stay (logging out of L2 too is the route's second step, as /auth/logout).
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { IdTokenHint } from '../../../domain/rp-logout.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export interface LogOutOfClientInput {
  readonly clientId: L1ServerUrl;
  readonly hint: IdTokenHint | null;
  /** The browser's signed-in session, if any: the session meant when there is no hint. */
  readonly browserSession: AuthenticatedToken | null;
}

export class LogOutOfClient {
  constructor(
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  /** Answers how many tokens were newly revoked. */
  async execute(input: LogOutOfClientInput): Promise<number> {
    const session = input.hint
      ? { jti: input.hint.sid, username: input.hint.username }
      : input.browserSession && {
          jti: input.browserSession.claims.jti,
          username: input.browserSession.claims.username,
        };
    if (!session) return 0;
    const scopedToClient = async () =>
      (await this.issuedTokens.listActiveBySession(session.jti, this.clock.now())).filter(
        (token) => token.l1Server === input.clientId && token.username === session.username,
      );
    // A code exchanged while the first list was read is caught by the second, as logout does.
    const revoked = await this.writer.revoke(await scopedToClient());
    return revoked + (await this.writer.revoke(await scopedToClient()));
  }
}
