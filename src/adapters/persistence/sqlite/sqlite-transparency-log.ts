import type { Database, Statement } from 'better-sqlite3';
import {
  LogDataMissingError,
  type SignedCheckpoint,
  type TransparencyLogState,
  type TransparencyLogStore,
} from '../../../application/ports/transparency-log-store.js';
import { EMPTY_RIGHT_EDGE, type RightEdge } from '@l2/tlog';
import { appendEntry, edgeBytes, plainBytes, storedEdge } from '../transparency-hashes.js';
import { storeCall } from './sqlite-errors.js';

/**
 * The transparency log's tables (migration 10, docs/adr/0013): `tlog_hashes (level, idx, hash)` keeps every leaf
 * hash (level 0) and the root of every completed tile of each level above; `tlog_state`, one row, the tree's size
 * and right edge (kept by the append), the origin pinned at the first start and the latest signed checkpoint.
 */
export const TRANSPARENCY_LOG_SCHEMA = `
  CREATE TABLE tlog_hashes (
    level INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (level, idx)
  ) WITHOUT ROWID;
  CREATE TABLE tlog_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    size INTEGER NOT NULL,
    edge BLOB NOT NULL,
    origin TEXT,
    checkpoint_size INTEGER,
    checkpoint TEXT
  );
`;

/** Activities read per query while hashes are built from the stored history. */
const BACKFILL_BATCH = 2_000;

export interface TransparencyAppend {
  /** Adds entry `idx` (the stored text) to the tree, inside the caller's transaction. */
  (idx: number, text: string): void;
}

/** The part of every append that keeps the tree: run inside the append's transaction, after the activity's insert. */
export function prepareTransparencyAppend(db: Database): TransparencyAppend {
  const state = db.prepare<[], { size: number; edge: Buffer }>(
    'SELECT size, edge FROM tlog_state WHERE id = 1',
  );
  const insertHash = db.prepare<[number, number, Uint8Array]>(
    'INSERT INTO tlog_hashes (level, idx, hash) VALUES (?, ?, ?)',
  );
  const updateEdge = db.prepare<[number, Buffer]>('UPDATE tlog_state SET size = ?, edge = ? WHERE id = 1');
  return (idx, text) => {
    const row = state.get();
    if (!row) throw new Error('the transparency log has no state row (migration 9 not applied?)');
    const { edge, completed } = appendEntry(storedEdge(row.size, row.edge), idx, text);
    for (const { level, index, hash } of completed) insertHash.run(level, index, hash);
    updateEdge.run(edge.size, edgeBytes(edge));
  };
}

/**
 * Builds the tree from the activities already stored, in idx order (the migration's fill, and the import's), and
 * writes its state row: the log covers the history from before it existed, and a first checkpoint can be signed
 * over all of it.
 */
export function buildTransparencyLog(db: Database): void {
  const rows = db.prepare<[number, number], { idx: number; document: string }>(
    'SELECT idx, document FROM activities WHERE idx >= ? ORDER BY idx LIMIT ?',
  );
  const insertHash = db.prepare<[number, number, Uint8Array]>(
    'INSERT INTO tlog_hashes (level, idx, hash) VALUES (?, ?, ?)',
  );
  let edge: RightEdge = EMPTY_RIGHT_EDGE;
  for (;;) {
    const batch = rows.all(edge.size, BACKFILL_BATCH);
    for (const { idx, document } of batch) {
      const appended = appendEntry(edge, idx, document);
      for (const { level, index, hash } of appended.completed) insertHash.run(level, index, hash);
      edge = appended.edge;
    }
    if (batch.length < BACKFILL_BATCH) break;
  }
  db.prepare<[number, Buffer]>(
    `INSERT INTO tlog_state (id, size, edge) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET size = excluded.size, edge = excluded.edge`,
  ).run(edge.size, edgeBytes(edge));
}

interface StateRow {
  size: number;
  origin: string | null;
  checkpoint_size: number | null;
  checkpoint: string | null;
}

export class SqliteTransparencyLog implements TransparencyLogStore {
  private readonly selectState: Statement<[], StateRow>;
  private readonly selectOrigin: Statement<[], { origin: string | null }>;
  private readonly setOrigin: Statement<[string]>;
  private readonly selectHashes: Statement<[number, number, number], { hash: Buffer }>;
  private readonly selectEntries: Statement<[number, number], { entry: Buffer }>;
  private readonly keepCheckpoint: Statement<[number, string, number]>;

  constructor(db: Database) {
    this.selectState = db.prepare(
      'SELECT size, origin, checkpoint_size, checkpoint FROM tlog_state WHERE id = 1',
    );
    this.selectOrigin = db.prepare('SELECT origin FROM tlog_state WHERE id = 1');
    this.setOrigin = db.prepare('UPDATE tlog_state SET origin = ? WHERE id = 1 AND origin IS NULL');
    this.selectHashes = db.prepare(
      'SELECT hash FROM tlog_hashes WHERE level = ? AND idx >= ? AND idx < ? ORDER BY idx',
    );
    // The stored UTF-8 bytes themselves (the file's encoding is UTF-8): no text is decoded and encoded again.
    this.selectEntries = db.prepare(
      'SELECT CAST(document AS BLOB) AS entry FROM activities WHERE idx >= ? AND idx < ? ORDER BY idx',
    );
    this.keepCheckpoint = db.prepare(
      `UPDATE tlog_state SET checkpoint_size = ?, checkpoint = ?
       WHERE id = 1 AND (checkpoint_size IS NULL OR checkpoint_size < ?)`,
    );
  }

  async state(): Promise<TransparencyLogState> {
    const row = storeCall(() => this.selectState.get());
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
    return storeCall(() => {
      this.setOrigin.run(origin);
      return this.selectOrigin.get()?.origin ?? origin;
    });
  }

  async hashes(level: number, first: number, count: number): Promise<Uint8Array[]> {
    const rows = storeCall(() => this.selectHashes.all(level, first, first + count));
    if (rows.length !== count)
      throw new LogDataMissingError(`level ${level} holds no hashes ${first}–${first + count - 1}`);
    return rows.map((row) => plainBytes(row.hash));
  }

  async entries(first: number, count: number): Promise<Uint8Array[]> {
    const rows = storeCall(() => this.selectEntries.all(first, first + count));
    if (rows.length !== count)
      throw new LogDataMissingError(`the log holds no entries ${first}–${first + count - 1}`);
    return rows.map((row) => plainBytes(row.entry));
  }

  async recordCheckpoint(checkpoint: SignedCheckpoint): Promise<boolean> {
    const { size, note } = checkpoint;
    return storeCall(() => this.keepCheckpoint.run(size, note, size).changes === 1);
  }
}
