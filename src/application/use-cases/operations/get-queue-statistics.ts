// Rule: operators can see how many outbound jobs wait for delivery and how many were given up. A pass-through kept
// on purpose: the edges reach the store only through use-cases.
import type { KindStatistics, QueueAdministration } from '../../ports/queue-administration.js';

export class GetQueueStatistics {
  constructor(private readonly queue: QueueAdministration) {}

  async execute(): Promise<{ pending: number; abandoned: number; byKind: KindStatistics[] }> {
    const [totals, byKind] = await Promise.all([this.queue.stats(), this.queue.statsByKind()]);
    return { ...totals, byKind };
  }
}
