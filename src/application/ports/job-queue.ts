/** A unit of outbound work, stored durably until delivered or given up. */
export interface Job {
  readonly id: string;
  readonly kind: string;
  /** Stored as JSON: Dates come back as strings, `undefined` as null. */
  readonly payload: unknown;
  /** The destination the job goes to (its origin), or null for a job without one. */
  readonly lane: string | null;
  /** Failed attempts so far. */
  readonly attempts: number;
  readonly queuedAt: Date;
  /**
   * Identifies the claim (one per `claim()` call, never reused): completing or rescheduling needs it, so once another
   * claim has taken the job over, the worker that lost it can no longer touch it.
   */
  readonly leaseId: string;
}

export interface NewJob {
  readonly kind: string;
  readonly payload: unknown;
  /** See {@link Job.lane}; none by default. */
  readonly lane?: string | null;
  /**
   * Jobs sharing a key wait one at a time: queuing a job whose key a pending job holds replaces that job (its kind,
   * payload and lane) as if it had just been queued — due now, no attempts, no last error, its lease released (a
   * worker still running it can no longer complete, reschedule or abandon it) — instead of adding one. None by
   * default. An abandoned job keeps its key but holds nothing: a new one with that key is added beside it.
   */
  readonly replaceKey?: string | null;
}

export interface ClaimRequest {
  readonly now: Date;
  readonly leaseMs: number;
  readonly limit: number;
  /** Must be new for each call. */
  readonly leaseId: string;
  /** Lanes whose jobs must not be handed out now (busy or backed off in this worker). */
  readonly skipLanes?: readonly string[];
  /** When given, only jobs of these lanes (less `skipLanes`) and jobs without a lane are handed out. */
  readonly onlyLanes?: readonly string[];
}

/**
 * A durable at-least-once queue shared by every process on the store: what the outbound worker needs (the JobRunner)
 * and nothing more — an operator's view and tools are the QueueAdministration port. A claimed job is leased: no other
 * claim returns it until the lease runs out, so two workers never work one job at the same time; a worker that dies
 * mid-job loses its lease and the job is claimed again.
 */
export interface JobQueue {
  /** Queues jobs to run from `now` (a job with a `replaceKey` a pending job holds replaces that one). */
  enqueue(jobs: readonly NewJob[], now: Date): Promise<void>;
  /**
   * Leases up to `limit` jobs that are due and not leased, oldest due first (queue order among equals), taking at
   * most ONE job of any lane per call, none of `skipLanes`, none of a lane backed off past `now` (see postponeLane)
   * and, with `onlyLanes`, none of any other lane; jobs without a lane are not limited.
   */
  claim(request: ClaimRequest): Promise<Job[]>;
  /**
   * Removes a delivered job. Returns false when the job was claimed again by someone else after the lease ran out
   * (an expired lease that nobody took over still completes: at-least-once delivery allows that).
   */
  complete(job: Job): Promise<boolean>;
  /** Records a failed attempt and schedules the next one. Returns false when the lease was lost. */
  reschedule(job: Job, runAt: Date, error: string): Promise<boolean>;
  /** Gives a job up for good, keeping it for inspection. Returns false when the lease was lost. */
  abandon(job: Job, error: string): Promise<boolean>;
  /**
   * Backs a whole lane off until `until`: no job of it is claimed before then — those waiting now and those queued
   * meanwhile — while jobs already leased keep their lease. No job is rewritten and no attempt is counted: the lane
   * holds one record, so the cost does not grow with its jobs. A later `until` extends the back-off, an earlier one
   * never shortens it. Back-offs already over by `now` may be forgotten.
   */
  postponeLane(lane: string, until: Date, now: Date): Promise<void>;
}
