import type {
  RendererAttachment,
  RendererAttachments,
} from '../../../application/ports/renderer-attachments.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Revocation } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { MemoryDatabase } from './memory-database.js';

export class InMemoryRendererAttachments implements RendererAttachments {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async attach(username: Username, l1Server: L1ServerUrl, at: Date, limit: number): Promise<boolean> {
    this.db.assertOpen();
    const servers = this.db.attachments.get(username) ?? new Map<string, number>();
    if (!servers.has(l1Server) && servers.size >= limit) return false;
    servers.set(l1Server, at.getTime());
    this.db.attachments.set(username, servers);
    return true;
  }

  async list(username: Username): Promise<RendererAttachment[]> {
    this.db.assertOpen();
    const servers = this.db.attachments.get(username) ?? new Map<string, number>();
    return [...servers]
      .sort(([aServer, aTime], [bServer, bTime]) => bTime - aTime || (aServer < bServer ? -1 : 1))
      .map(([l1Server, attachedAt]) => ({
        l1Server: l1Server as L1ServerUrl,
        attachedAt: new Date(attachedAt),
      }));
  }

  async detach(
    username: Username,
    l1Server: L1ServerUrl,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<{ removed: boolean; revoked: number }> {
    this.db.assertOpen();
    const servers = this.db.attachments.get(username);
    const removed = servers?.delete(l1Server) ?? false;
    if (servers?.size === 0) this.db.attachments.delete(username);
    return { removed, revoked: this.db.revoke(revocations, now) };
  }
}
