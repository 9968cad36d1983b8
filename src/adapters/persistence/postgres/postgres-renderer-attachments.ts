import type {
  RendererAttachment,
  RendererAttachments,
} from '../../../application/ports/renderer-attachments.js';
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Revocation } from '../../../domain/revocation.js';
import type { Username } from '../../../domain/user.js';
import { ATTACHMENT_ROWS } from './codecs/token-rows.js';
import type { RowOf } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { writeRevocations } from './postgres-revocation-store.js';
import { named } from './postgres-sql.js';

type AttachmentRow = RowOf<typeof ATTACHMENT_ROWS.columns>;

/** A user's attaches take turns (this advisory lock: class, hash of the name), so two cannot both take the last place. */
const USER_LOCK_CLASS = 0x4c33;

const ATTACH = named<AttachmentRow & { limit: number }>(`
  INSERT INTO renderer_attachments (${ATTACHMENT_ROWS.list})
  SELECT ${ATTACHMENT_ROWS.parameters}
  WHERE EXISTS (SELECT 1 FROM renderer_attachments WHERE username = @username AND l1_server = @l1_server)
     OR (SELECT COUNT(*) FROM renderer_attachments WHERE username = @username) < @limit
  ON CONFLICT (username, l1_server) DO UPDATE SET attached_at = EXCLUDED.attached_at`);

export class PostgresRendererAttachments implements RendererAttachments {
  constructor(private readonly db: PostgresDatabase) {}

  async attach(username: Username, l1Server: L1ServerUrl, at: Date, limit: number): Promise<boolean> {
    const row = ATTACHMENT_ROWS.toRow({ username, l1Server, attachedAt: at });
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [USER_LOCK_CLASS, username]);
      return (await ATTACH.run(tx, { ...row, limit })).count > 0;
    });
  }

  async list(username: Username): Promise<RendererAttachment[]> {
    const rows = await this.db.query<AttachmentRow>(
      `SELECT ${ATTACHMENT_ROWS.list} FROM renderer_attachments WHERE username = $1
       ORDER BY attached_at DESC, l1_server`,
      [username],
    );
    return rows.map((row) => {
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
    return this.db.transaction(async (tx) => {
      const { count } = await tx.query(
        'DELETE FROM renderer_attachments WHERE username = $1 AND l1_server = $2',
        [username, l1Server],
      );
      return { removed: count > 0, revoked: await writeRevocations(tx, revocations, now) };
    });
  }
}
