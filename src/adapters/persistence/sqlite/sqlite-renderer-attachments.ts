import type { Database, Statement, Transaction } from 'better-sqlite3';
import type {
  RendererAttachment,
  RendererAttachments,
} from '../../../application/ports/renderer-attachments.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Revocation } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { ATTACHMENT_ROWS } from './codecs/token-rows.js';
import type { RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';

type AttachmentRow = RowOf<typeof ATTACHMENT_ROWS.columns>;
import { prepareRevocationWrite } from './sqlite-revocation-store.js';

export class SqliteRendererAttachments implements RendererAttachments {
  private readonly upsert: Statement<[AttachmentRow & { limit: number }]>;
  private readonly selectAll: Statement<[string], AttachmentRow>;
  private readonly deleteOne: Statement<[string, string]>;
  private readonly detachTransaction: Transaction<
    (
      username: string,
      l1Server: string,
      revocations: readonly Revocation[],
      now: Date,
    ) => { removed: boolean; revoked: number }
  >;

  constructor(db: Database) {
    // One statement, so the count and the write are one atomic step (also across processes on the file).
    this.upsert = db.prepare(`
      INSERT INTO renderer_attachments (${ATTACHMENT_ROWS.list})
      SELECT ${ATTACHMENT_ROWS.parameters}
      WHERE EXISTS (SELECT 1 FROM renderer_attachments WHERE username = @username AND l1_server = @l1_server)
         OR (SELECT COUNT(*) FROM renderer_attachments WHERE username = @username) < @limit
      ON CONFLICT (username, l1_server) DO UPDATE SET attached_at = excluded.attached_at`);
    this.selectAll = db.prepare(
      `SELECT ${ATTACHMENT_ROWS.list} FROM renderer_attachments WHERE username = ? ORDER BY attached_at DESC, l1_server`,
    );
    this.deleteOne = db.prepare('DELETE FROM renderer_attachments WHERE username = ? AND l1_server = ?');
    const revoke = prepareRevocationWrite(db);
    this.detachTransaction = db.transaction((username, l1Server, revocations, now) => ({
      removed: this.deleteOne.run(username, l1Server).changes > 0,
      revoked: revoke(revocations, now),
    }));
  }

  async attach(username: Username, l1Server: L1ServerUrl, at: Date, limit: number): Promise<boolean> {
    const row = ATTACHMENT_ROWS.toRow({ username, l1Server, attachedAt: at });
    return storeCall(() => this.upsert.run({ ...row, limit })).changes > 0;
  }

  async list(username: Username): Promise<RendererAttachment[]> {
    return storeCall(() => this.selectAll.all(username)).map((row) => {
      const { l1Server, attachedAt } = ATTACHMENT_ROWS.fromRow(row);
      return { l1Server, attachedAt };
    });
  }

  async detach(
    username: Username,
    l1Server: L1ServerUrl,
    revocations: readonly Revocation[],
    now: Date,
  ): Promise<{ removed: boolean; revoked: number }> {
    return storeCall(() => this.detachTransaction.immediate(username, l1Server, revocations, now));
  }
}
