// Rule: a signed-in user (with an unscoped token) gets a token scoped to one L1 server, never outliving the
// session, and the attachment is recorded — at most MAX_ATTACHED_L1_SERVERS of them per user. A scoped token cannot
// mint another.
import { MAX_ATTACHED_L1_SERVERS, type L1ServerUrl } from '../../../domain/l1-server.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { issuedTokenOf } from '../../../domain/revocation.js';
import { isScoped } from '../../../domain/token.js';
import type { Clock } from '../../ports/clock.js';
import type { DestinationPolicy } from '../../ports/destination-policy.js';
import type { RendererAttachments } from '../../ports/renderer-attachments.js';
import type { IssuedTokenView, TokenIssuer } from '../../services/token-issuer.js';
import type { AuthenticateToken, AuthenticatedToken } from '../../services/authenticate-token.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export type AttachRendererError =
  | { readonly type: 'forbidden'; readonly detail: string }
  | { readonly type: 'invalid_request'; readonly detail: string }
  | { readonly type: 'token_revoked' };

export class AttachRenderer {
  constructor(
    private readonly issuer: TokenIssuer,
    private readonly attachments: RendererAttachments,
    private readonly destinations: DestinationPolicy,
    private readonly authenticate: AuthenticateToken,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    l1Server: L1ServerUrl;
  }): Promise<Result<IssuedTokenView, AttachRendererError>> {
    const { session, l1Server } = input;
    if (isScoped(session.claims)) {
      return err({
        type: 'forbidden',
        detail: 'A token scoped to an L1 server cannot attach another renderer.',
      });
    }
    const refusal = await this.destinations.check(l1Server);
    if (refusal)
      return err({ type: 'invalid_request', detail: `This L1 server cannot be used: ${refusal}.` });

    // Recorded first: an attachment over the limit must not leave a token behind.
    const attached = await this.attachments.attach(
      session.claims.username,
      l1Server,
      this.clock.now(),
      MAX_ATTACHED_L1_SERVERS,
    );
    if (!attached) {
      return err({
        type: 'forbidden',
        detail: `At most ${MAX_ATTACHED_L1_SERVERS} L1 servers can be attached at once; detach one first.`,
      });
    }
    const scoped = await this.issuer.issueScoped(session.claims, l1Server);

    // A logout that committed while we issued may have missed the new token: if the session is revoked now,
    // revoke the child too so no scoped token outlives its session.
    if (await this.authenticate.isRevoked(session.tokenHash)) {
      await this.writer.revoke([issuedTokenOf(scoped.claims, scoped.tokenHash)]);
      return err({ type: 'token_revoked' });
    }
    return ok(scoped);
  }
}
