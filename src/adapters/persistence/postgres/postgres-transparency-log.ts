import {
  LogDataMissingError,
  type SignedCheckpoint,
  type TransparencyLogState,
  type TransparencyLogStore,
} from '../../../application/ports/transparency-log-store.js';
import { EMPTY_RIGHT_EDGE, type RightEdge } from '@l2/tlog';
import { appendEntry, edgeBytes, plainBytes, storedEdge } from '../transparency-hashes.js';
import { arrayLiteral, type Queryable } from './postgres-sql.js';

// The transparency log's tables (migration 3, docs/adr/0013): `tlog_hashes (level, idx, hash)` keeps every leaf
// hash (level 0) and the root of every completed tile of each level above; `tlog_state`, one row, the tree's size
// and right edge (kept by the append, whose lock on this row makes appends take turns); `tlog_signed`, one row, the
// origin pinned at the first start and the latest signed checkpoint.

/** The tree as the append finds it, its row locked until the append's transaction ends. */
export async function lockedTree(tx: Queryable): Promise<RightEdge> {
  const [row] = await tx.query<{ size: number; edge: Buffer }>(
    'SELECT size, edge FROM tlog_state WHERE id = 1 FOR UPDATE',
  );
  if (!row) throw new Error('the transparency log has no state row (migration 3 not applied?)');
  return storedEdge(row.size, row.edge);
}

const KEEP = `
  WITH kept AS (
    INSERT INTO tlog_hashes (level, idx, hash) SELECT * FROM unnest($1::integer[], $2::bigint[], $3::bytea[]))
  UPDATE tlog_state SET size = $4, edge = $5 WHERE id = 1`;

/**
 * Adds entry `idx` (the stored text) to the tree of `edge`, inside the append's transaction, after the activity's
 * insert: its leaf hash, the tiles it completes and the new right edge, in one statement. Answers the new edge.
 */
export async function keepInTree(
  tx: Queryable,
  edge: RightEdge,
  idx: number,
  text: string,
): Promise<RightEdge> {
  const appended = appendEntry(edge, idx, text);
  await writeTree(tx, appended.edge, appended.completed);
  return appended.edge;
}

async function writeTree(
  tx: Queryable,
  edge: RightEdge,
  completed: readonly { level: number; index: number; hash: Uint8Array }[],
): Promise<void> {
  await tx.query(KEEP, [
    arrayLiteral(completed.map((c) => c.level)),
    arrayLiteral(completed.map((c) => c.index)),
    arrayLiteral(completed.map((c) => c.hash)),
    edge.size,
    edgeBytes(edge),
  ]);
}

/** Activities read per query while hashes are built from the stored history. */
const BACKFILL_BATCH = 2_000;

/** Builds the tree from the activities stored, in idx order (an import's), and writes its state row. */
export async function buildTransparencyLog(tx: Queryable): Promise<void> {
  await tx.query('DELETE FROM tlog_hashes');
  let edge: RightEdge = EMPTY_RIGHT_EDGE;
  for (;;) {
    const batch = await tx.query<{ idx: number; document: string }>(
      'SELECT idx, document FROM activities WHERE idx >= $1 ORDER BY idx LIMIT $2',
      [edge.size, BACKFILL_BATCH],
    );
    const completed: { level: number; index: number; hash: Uint8Array }[] = [];
    for (const { idx, document } of batch) {
      const appended = appendEntry(edge, idx, document);
      completed.push(...appended.completed);
      edge = appended.edge;
    }
    await writeTree(tx, edge, completed);
    if (batch.length < BACKFILL_BATCH) break;
  }
}

interface StateRow {
  size: number;
  origin: string | null;
  checkpoint_size: number | null;
  checkpoint: string | null;
}

export class PostgresTransparencyLog implements TransparencyLogStore {
  constructor(private readonly db: Queryable) {}

  async state(): Promise<TransparencyLogState> {
    // One statement: one snapshot of both rows.
    const [row] = await this.db.query<StateRow>(
      `SELECT s.size, c.origin, c.checkpoint_size, c.checkpoint
       FROM tlog_state AS s CROSS JOIN tlog_signed AS c WHERE s.id = 1 AND c.id = 1`,
    );
    if (!row) throw new Error('the transparency log has no state row');
    return {
      size: row.size,
      origin: row.origin,
      checkpoint:
        row.checkpoint_size === null || row.checkpoint === null
          ? null
          : { size: row.checkpoint_size, note: row.checkpoint },
    };
  }

  async pinOrigin(origin: string): Promise<string> {
    // The pinned origin whether this call set it or an earlier one did (in one statement: a concurrent pin waits).
    const [row] = await this.db.query<{ origin: string | null }>(
      `UPDATE tlog_signed SET origin = COALESCE(origin, $1) WHERE id = 1 RETURNING origin`,
      [origin],
    );
    return row?.origin ?? origin;
  }

  async hashes(level: number, first: number, count: number): Promise<Uint8Array[]> {
    const rows = await this.db.query<{ hash: Buffer }>(
      'SELECT hash FROM tlog_hashes WHERE level = $1 AND idx >= $2 AND idx < $3 ORDER BY idx',
      [level, first, first + count],
    );
    if (rows.length !== count)
      throw new LogDataMissingError(`level ${level} holds no hashes ${first}–${first + count - 1}`);
    return rows.map((row) => plainBytes(row.hash));
  }

  async entries(first: number, count: number): Promise<Uint8Array[]> {
    // The stored UTF-8 bytes themselves: no text is decoded and encoded again.
    const rows = await this.db.query<{ entry: Buffer }>(
      `SELECT convert_to(document, 'UTF8') AS entry FROM activities WHERE idx >= $1 AND idx < $2 ORDER BY idx`,
      [first, first + count],
    );
    if (rows.length !== count)
      throw new LogDataMissingError(`the log holds no entries ${first}–${first + count - 1}`);
    return rows.map((row) => plainBytes(row.entry));
  }

  async recordCheckpoint(checkpoint: SignedCheckpoint): Promise<boolean> {
    const { count } = await this.db.query(
      `UPDATE tlog_signed SET checkpoint_size = $1, checkpoint = $2
       WHERE id = 1 AND (checkpoint_size IS NULL OR checkpoint_size < $1)`,
      [checkpoint.size, checkpoint.note],
    );
    return count === 1;
  }
}
