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
import type { WorkSignal } from '../../ports/work-signal.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';

export class DetachRenderer {
  constructor(
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly attachments: RendererAttachments,
    private readonly writer: RevocationWriter,
    private readonly signal: WorkSignal,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    l1Server: L1ServerUrl;
  }): Promise<Result<{ revoked: number }, { type: 'forbidden' }>> {
    if (isScoped(input.session.claims)) return err({ type: 'forbidden' });
    const username = input.session.claims.username;
    // The attachment goes in the same write as the revocation of its tokens: no crash leaves one without the other.
    const tokens = await this.issuedTokens.listActiveScoped(username, input.l1Server, this.clock.now());
    const { revoked } = await this.attachments.detach(
      username,
      input.l1Server,
      this.writer.revocationsOf(tokens),
      this.clock.now(),
    );
    this.signal.jobsQueued();
    // An attach that issued its token after our list either finds the attachment gone and revokes the token itself,
    // or checked before our write: this second sweep catches that one.
    const late = await this.issuedTokens.listActiveScoped(username, input.l1Server, this.clock.now());
    return ok({ revoked: revoked + (await this.writer.revoke(late)) });
  }
}
