// Rule: queued revocation notices are delivered at least once: retried with growing delays for 24 hours, given up
// at once when the destination is forbidden.
import { assertNever } from '../../domain/result.js';
import { nextAttemptAt, type RetryPolicy } from '../../domain/delivery-policy.js';
import { REVOCATION_NOTICE_JOB, type RevocationNotice } from '../../domain/revocation.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { Job, JobQueue } from '../ports/job-queue.js';
import type { L1Notifier } from '../ports/l1-notifier.js';

export class DeliverQueuedNotices {
  constructor(
    private readonly jobs: JobQueue,
    private readonly notifier: L1Notifier,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly policy: RetryPolicy,
    /** Longer than one attempt may take (10 s timeout), so a live worker never loses its lease mid-attempt. */
    private readonly leaseMs = 60_000,
  ) {}

  /** Works one batch of due jobs; returns how many it handled (0 when nothing was due). */
  async runOnce(limit = 16): Promise<number> {
    const batch = await this.jobs.claim({
      now: this.clock.now(),
      leaseMs: this.leaseMs,
      limit,
      leaseId: this.ids.newId(),
    });
    await Promise.all(batch.map((job) => this.deliver(job)));
    return batch.length;
  }

  private async deliver(job: Job): Promise<void> {
    if (job.kind !== REVOCATION_NOTICE_JOB) {
      await this.jobs.abandon(job, `unknown job kind ${job.kind}`);
      return;
    }
    const outcome = await this.notifier.notify(job.payload as RevocationNotice);
    switch (outcome.kind) {
      case 'delivered':
        await this.jobs.complete(job);
        return;
      case 'refused':
        await this.jobs.abandon(job, outcome.reason);
        return;
      case 'failed': {
        const runAt = nextAttemptAt({
          policy: this.policy,
          failedAttempts: job.attempts + 1,
          firstQueuedAt: job.queuedAt,
          now: this.clock.now(),
          random: this.ids.random(),
        });
        await (runAt
          ? this.jobs.reschedule(job, runAt, outcome.reason)
          : this.jobs.abandon(job, outcome.reason));
        return;
      }
      default:
        assertNever(outcome);
    }
  }
}
