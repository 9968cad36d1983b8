// Rule: detaching an L1 server revokes every unexpired token of the user scoped to it, from any session
// (revocation first, notices after), and forgets the attachment. Only the user's own session may do it: a token
// held by one L1 server must not be able to cut the user off from another.
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { Clock } from '../../ports/clock.js';
import type { IssuedTokenRegistry } from '../../ports/issued-token-registry.js';
import type { RendererAttachments } from '../../ports/renderer-attachments.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export class DetachRenderer {
  constructor(
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly attachments: RendererAttachments,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    l1Server: L1ServerUrl;
  }): Promise<Result<{ revoked: number }, { type: 'forbidden' }>> {
    if (isScoped(input.session.claims)) return err({ type: 'forbidden' });
    const username = input.session.claims.username;
    // The record goes first: an attach running at the same time then finds it gone after issuing its token and
    // revokes that token itself, so no scoped token outlives its attachment (and the cap on attachments holds).
    await this.attachments.remove(username, input.l1Server);
    const tokens = await this.issuedTokens.listActiveScoped(username, input.l1Server, this.clock.now());
    return ok({ revoked: await this.writer.revoke(tokens) });
  }
}
