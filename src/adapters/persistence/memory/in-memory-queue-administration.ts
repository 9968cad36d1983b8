import type {
  KindStatistics,
  ListedJob,
  QueueAdministration,
  QueueTotals,
} from '../../../application/ports/queue-administration.js';
import type { MemoryDatabase } from './memory-database.js';

/** An operator's view of the jobs InMemoryJobQueue holds (the same `MemoryDatabase`). */
export class InMemoryQueueAdministration implements QueueAdministration {
  constructor(private readonly db: MemoryDatabase) {}

  async list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]> {
    this.db.assertOpen();
    return [...this.db.jobs.values()]
      .filter((job) => filter.kind === null || job.kind === filter.kind)
      .sort((a, b) => a.id - b.id)
      .slice(0, filter.limit)
      .map((job) => ({
        id: String(job.id),
        kind: job.kind,
        state: job.state,
        lane: job.lane,
        attempts: job.attempts,
        queuedAt: new Date(job.queuedAt),
        runAt: new Date(
          Math.max(job.runAt, job.lane === null ? 0 : (this.db.laneBackoffs.get(job.lane) ?? 0)),
        ),
        leased: job.state === 'pending' && job.leaseUntil !== null && job.leaseUntil > now.getTime(),
        lastError: job.lastError,
      }));
  }

  async retryAbandoned(kind: string | null, now: Date): Promise<number> {
    this.db.assertOpen();
    let retried = 0;
    // Newest first, so that of abandoned jobs sharing a key the newest goes back and holds it.
    for (const job of [...this.db.jobs.values()].sort((a, b) => b.id - a.id)) {
      if (job.state !== 'abandoned' || (kind !== null && job.kind !== kind)) continue;
      if (this.db.pendingHolding(job.replaceKey)) continue;
      this.db.jobs.set(job.id, {
        ...job,
        state: 'pending',
        attempts: 0,
        queuedAt: now.getTime(),
        runAt: now.getTime(),
      });
      retried++;
    }
    return retried;
  }

  async dropAbandoned(kind: string | null): Promise<number> {
    this.db.assertOpen();
    let dropped = 0;
    for (const [id, job] of this.db.jobs) {
      if (job.state !== 'abandoned' || (kind !== null && job.kind !== kind)) continue;
      this.db.jobs.delete(id);
      dropped++;
    }
    return dropped;
  }

  async statsByKind(): Promise<KindStatistics[]> {
    this.db.assertOpen();
    const byKind = new Map<string, { pending: number; abandoned: number; oldest: number | null }>();
    for (const job of this.db.jobs.values()) {
      const entry = byKind.get(job.kind) ?? { pending: 0, abandoned: 0, oldest: null };
      if (job.state === 'pending') {
        entry.pending++;
        entry.oldest = Math.min(entry.oldest ?? job.queuedAt, job.queuedAt);
      } else entry.abandoned++;
      byKind.set(job.kind, entry);
    }
    return [...byKind]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([kind, { pending, abandoned, oldest }]) => ({
        kind,
        pending,
        abandoned,
        oldestPendingQueuedAt: oldest === null ? null : new Date(oldest),
      }));
  }

  async stats(): Promise<QueueTotals> {
    this.db.assertOpen();
    let pending = 0;
    let abandoned = 0;
    for (const job of this.db.jobs.values()) {
      if (job.state === 'pending') pending++;
      else abandoned++;
    }
    return { pending, abandoned };
  }
}
