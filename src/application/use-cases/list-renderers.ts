// Rule: a user sees the L1 servers they attached, most recent first.
import type { Username } from '../../domain/user.js';
import type { RendererAttachment, RendererAttachments } from '../ports/renderer-attachments.js';

export class ListRenderers {
  constructor(private readonly attachments: RendererAttachments) {}

  execute(username: Username): Promise<RendererAttachment[]> {
    return this.attachments.list(username);
  }
}
