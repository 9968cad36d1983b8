import {
  LogDataMissingError,
  type SignedCheckpoint,
  type TransparencyLogState,
  type TransparencyLogStore,
} from '../../../application/ports/transparency-log-store.js';
import { activityEntryBytes } from '../../../domain/activity.js';
import type { MemoryDatabase } from './memory-database.js';

export class InMemoryTransparencyLog implements TransparencyLogStore {
  constructor(private readonly db: MemoryDatabase) {}

  async state(): Promise<TransparencyLogState> {
    this.db.assertOpen();
    const { edge, origin, checkpoint } = this.db.tlog;
    return { size: edge.size, origin, checkpoint };
  }

  async pinOrigin(origin: string): Promise<string> {
    this.db.assertOpen();
    return (this.db.tlog.origin ??= origin);
  }

  async hashes(level: number, first: number, count: number): Promise<Uint8Array[]> {
    this.db.assertOpen();
    const hashes = (this.db.tlog.levels[level] ?? []).slice(first, first + count);
    if (first < 0 || hashes.length !== count)
      throw new LogDataMissingError(`level ${level} holds no hashes ${first}–${first + count - 1}`);
    return hashes;
  }

  async entries(first: number, count: number): Promise<Uint8Array[]> {
    this.db.assertOpen();
    const stored = this.db.activities.slice(first, first + count);
    if (first < 0 || stored.length !== count)
      throw new LogDataMissingError(`the log holds no entries ${first}–${first + count - 1}`);
    return stored.map(({ document }) => activityEntryBytes(document));
  }

  async recordCheckpoint(checkpoint: SignedCheckpoint): Promise<boolean> {
    this.db.assertOpen();
    const kept = this.db.tlog.checkpoint;
    if (kept !== null && kept.size >= checkpoint.size) return false;
    this.db.tlog.checkpoint = { size: checkpoint.size, note: checkpoint.note };
    return true;
  }
}
