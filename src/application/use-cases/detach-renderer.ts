// Rule: detaching an L1 server revokes every unexpired token of the user scoped to it, from any session
// (revocation first, notices after), and forgets the attachment.
import type { L1ServerUrl } from '../../domain/l1-server.js';
import type { Username } from '../../domain/user.js';
import type { Clock } from '../ports/clock.js';
import type { IssuedTokenRegistry } from '../ports/issued-token-registry.js';
import type { RendererAttachments } from '../ports/renderer-attachments.js';
import type { RevocationWriter } from './revocation-writer.js';

export class DetachRenderer {
  constructor(
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly attachments: RendererAttachments,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
  ) {}

  async execute(input: { username: Username; l1Server: L1ServerUrl }): Promise<{ revoked: number }> {
    const tokens = await this.issuedTokens.listActiveScoped(input.username, input.l1Server, this.clock.now());
    const revoked = await this.writer.revoke(tokens);
    await this.attachments.remove(input.username, input.l1Server);
    return { revoked };
  }
}
