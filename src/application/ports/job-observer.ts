/**
 * How one attempt at an outbound job ended: delivered, refused for good, failed (retried later), given up, or
 * dropped unsent (a domain rule shuts its destination out).
 */
export const JOB_OUTCOMES = ['delivered', 'refused', 'failed', 'gave_up', 'dropped'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/** What the destination was to the worker when the attempt started: answering well, not yet or no longer, or none. */
export const DESTINATION_CLASSES = ['proven', 'untried', 'none'] as const;
export type DestinationClass = (typeof DESTINATION_CLASSES)[number];

/** Told of every attempt at an outbound job (for metrics); must not throw or block. */
export interface JobObserver {
  attempted(kind: string, outcome: JobOutcome, destination: DestinationClass): void;
}

export const IGNORE_JOBS: JobObserver = { attempted: () => {} };
