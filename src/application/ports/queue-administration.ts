/** How many jobs wait and how many were given up. */
export interface QueueTotals {
  readonly pending: number;
  readonly abandoned: number;
}

export interface KindStatistics extends QueueTotals {
  readonly kind: string;
  /** When the longest-waiting pending job was queued; null when none is pending. */
  readonly oldestPendingQueuedAt: Date | null;
}

export interface ListedJob {
  readonly id: string;
  readonly kind: string;
  readonly state: 'pending' | 'abandoned';
  readonly lane: string | null;
  readonly attempts: number;
  readonly queuedAt: Date;
  /** When it is due: its own time, or the end of its lane's back-off if that is later. */
  readonly runAt: Date;
  /** Whether a worker holds it at `now` (its lease has not run out). */
  readonly leased: boolean;
  readonly lastError: string | null;
}

/**
 * The operator's side of the job queue (the worker's is JobQueue): counts for metrics and health, and the `l2 queue`
 * commands. Nothing here is on a request's or a delivery's path, so a count may read every job.
 */
export interface QueueAdministration {
  /** Counts jobs by state. */
  stats(): Promise<QueueTotals>;
  /** The same by job kind (only kinds with any job), with when the oldest pending job of each was queued. */
  statsByKind(): Promise<KindStatistics[]>;
  /** Up to `limit` jobs (of `kind`, when given), in queue order: for an operator's `l2 queue list`. */
  list(filter: { kind: string | null; limit: number }, now: Date): Promise<ListedJob[]>;
  /**
   * Puts abandoned jobs (of `kind`, when given) back in the queue, due now, as if just queued (their 24 hours start
   * again, their attempts from 0); the last error is kept. Of abandoned jobs sharing a `replaceKey`, only the newest
   * goes back, and none while a pending job holds the key (it supersedes them): the others stay abandoned. Returns
   * how many went back.
   */
  retryAbandoned(kind: string | null, now: Date): Promise<number>;
  /** Deletes abandoned jobs (of `kind`, when given); pending ones are never dropped. Returns how many. */
  dropAbandoned(kind: string | null): Promise<number>;
}
