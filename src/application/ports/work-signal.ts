/** Tells the background worker that jobs were queued, so delivery starts at once instead of at the next poll. */
export interface WorkSignal {
  jobsQueued(): void;
}
