// Rule: operators can see how many outbound notices wait for delivery and how many were given up.
import type { JobQueue } from '../../ports/job-queue.js';

export class GetQueueStatistics {
  constructor(private readonly jobs: JobQueue) {}

  execute(): Promise<{ pending: number; abandoned: number }> {
    return this.jobs.stats();
  }
}
