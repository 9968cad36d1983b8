// Rule: a user sees the L1 servers they attached, most recent first — through their own session, not through a
// token that one of those L1 servers holds.
import { err, ok, type Result } from '../../../domain/result.js';
import { isScoped } from '../../../domain/token.js';
import type { RendererAttachment, RendererAttachments } from '../../ports/renderer-attachments.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';

export class ListRenderers {
  constructor(private readonly attachments: RendererAttachments) {}

  async execute(session: AuthenticatedToken): Promise<Result<RendererAttachment[], { type: 'forbidden' }>> {
    if (isScoped(session.claims)) return err({ type: 'forbidden' });
    return ok(await this.attachments.list(session.claims.username));
  }
}
