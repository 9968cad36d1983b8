import type {
  ClaimRequest,
  Job,
  JobQueue,
  KindStatistics,
  ListedJob,
  NewJob,
} from '../../../application/ports/job-queue.js';
import { MemoryDatabase, type StoredJob } from './memory-database.js';

export class InMemoryJobQueue implements JobQueue {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async enqueue(jobs: readonly NewJob[], now: Date): Promise<void> {
    this.db.assertOpen();
    for (const job of jobs) this.db.insertJob(job, now);
  }

  async claim(input: ClaimRequest): Promise<Job[]> {
    this.db.assertOpen();
    if (input.limit <= 0) return [];
    const now = input.now.getTime();
    const skipped = new Set(input.skipLanes ?? []);
    const only = input.onlyLanes ? new Set(input.onlyLanes) : null;
    const ordered = [...this.db.jobs.values()]
      .filter(
        (j) =>
          j.state === 'pending' &&
          j.runAt <= now &&
          (j.leaseUntil === null || j.leaseUntil <= now) &&
          (j.lane === null ||
            (!skipped.has(j.lane) &&
              (only === null || only.has(j.lane)) &&
              (this.db.laneBackoffs.get(j.lane) ?? 0) <= now)),
      )
      .sort((a, b) => a.runAt - b.runAt || a.id - b.id);
    const due: StoredJob[] = [];
    for (const job of ordered) {
      if (due.length >= input.limit) break;
      if (job.lane !== null) {
        if (skipped.has(job.lane)) continue;
        skipped.add(job.lane);
      }
      due.push(job);
    }
    return due.map((job) => {
      job.leaseId = input.leaseId;
      job.leaseUntil = now + input.leaseMs;
      return toJob(job, input.leaseId);
    });
  }

  async complete(job: Job): Promise<boolean> {
    const stored = this.leased(job);
    if (!stored) return false;
    this.db.jobs.delete(stored.id);
    return true;
  }

  async reschedule(job: Job, runAt: Date, error: string): Promise<boolean> {
    const stored = this.leased(job);
    if (!stored) return false;
    stored.attempts++;
    stored.runAt = runAt.getTime();
    stored.leaseId = null;
    stored.leaseUntil = null;
    stored.lastError = error;
    return true;
  }

  async abandon(job: Job, error: string): Promise<boolean> {
    const stored = this.leased(job);
    if (!stored) return false;
    stored.state = 'abandoned';
    stored.leaseId = null;
    stored.leaseUntil = null;
    stored.lastError = error;
    return true;
  }

  async postponeLane(lane: string, until: Date, now: Date): Promise<void> {
    this.db.assertOpen();
    const backoffs = this.db.laneBackoffs;
    for (const [name, end] of backoffs) if (end <= now.getTime()) backoffs.delete(name);
    backoffs.set(lane, Math.max(backoffs.get(lane) ?? 0, until.getTime()));
  }

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

  async stats(): Promise<{ pending: number; abandoned: number }> {
    this.db.assertOpen();
    let pending = 0;
    let abandoned = 0;
    for (const job of this.db.jobs.values()) {
      if (job.state === 'pending') pending++;
      else abandoned++;
    }
    return { pending, abandoned };
  }

  /** The stored job when `job`'s lease still holds it. */
  private leased(job: Job): StoredJob | undefined {
    this.db.assertOpen();
    const stored = this.db.jobs.get(Number(job.id));
    return stored?.state === 'pending' && stored.leaseId === job.leaseId ? stored : undefined;
  }
}

function toJob(job: StoredJob, leaseId: string): Job {
  return {
    id: String(job.id),
    kind: job.kind,
    payload: JSON.parse(job.payload) as unknown,
    lane: job.lane,
    attempts: job.attempts,
    queuedAt: new Date(job.queuedAt),
    leaseId,
  };
}
