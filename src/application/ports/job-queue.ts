/** A unit of outbound work, stored durably until delivered or given up. */
export interface Job {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  /** Failed attempts so far. */
  readonly attempts: number;
  readonly queuedAt: Date;
  /** Identifies this claim; completing or rescheduling needs it, so a worker whose lease ran out cannot. */
  readonly leaseId: string;
}

export interface NewJob {
  readonly kind: string;
  readonly payload: unknown;
}

/**
 * A durable at-least-once queue shared by every process on the store. A claimed job is leased: no other claim
 * returns it until the lease runs out, so two workers never work one job at the same time; a worker that dies
 * mid-job loses its lease and the job is claimed again.
 */
export interface JobQueue {
  /** Queues jobs to run from `now`. */
  enqueue(jobs: readonly NewJob[], now: Date): Promise<void>;
  /** Leases up to `limit` jobs that are due and not leased, oldest due first. */
  claim(input: { now: Date; leaseMs: number; limit: number; leaseId: string }): Promise<Job[]>;
  /** Removes a delivered job. Returns false when the lease was lost (the job is someone else's now). */
  complete(job: Job): Promise<boolean>;
  /** Records a failed attempt and schedules the next one. Returns false when the lease was lost. */
  reschedule(job: Job, runAt: Date, error: string): Promise<boolean>;
  /** Gives a job up for good, keeping it for inspection. Returns false when the lease was lost. */
  abandon(job: Job, error: string): Promise<boolean>;
  /** Counts jobs by state, for health and metrics. */
  stats(): Promise<{ pending: number; abandoned: number }>;
}
