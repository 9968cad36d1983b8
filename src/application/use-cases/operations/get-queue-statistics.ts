// Rule: operators can see how many outbound jobs wait for delivery and how many were given up. A pass-through kept
// on purpose: the edges reach the store only through use-cases.
import type { JobQueue, KindStatistics } from '../../ports/job-queue.js';

export class GetQueueStatistics {
  constructor(private readonly jobs: JobQueue) {}

  async execute(): Promise<{ pending: number; abandoned: number; byKind: KindStatistics[] }> {
    const [totals, byKind] = await Promise.all([this.jobs.stats(), this.jobs.statsByKind()]);
    return { ...totals, byKind };
  }
}
