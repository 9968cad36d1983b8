import type { ClaimRequest, Job, JobQueue, NewJob } from '../../../application/ports/job-queue.js';
import { MemoryDatabase, type StoredJob } from './memory-database.js';

/** The worker's queue; InMemoryQueueAdministration reads and repairs the same jobs. */
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
