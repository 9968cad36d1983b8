/** How one attempt at an outbound job ended: delivered, refused for good, failed (retried later), or given up. */
export type JobOutcome = 'delivered' | 'refused' | 'failed' | 'gave_up';

/** What the destination was to the worker when the attempt started: answering well, not yet or no longer, or none. */
export type DestinationClass = 'proven' | 'untried' | 'none';

/** Told of every attempt at an outbound job (for metrics); must not throw or block. */
export interface JobObserver {
  attempted(kind: string, outcome: JobOutcome, destination: DestinationClass): void;
}

export const IGNORE_JOBS: JobObserver = { attempted: () => {} };
