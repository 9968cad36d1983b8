import type { Logger } from 'pino';
import type { WorkSignal } from '../../application/ports/work-signal.js';

/**
 * Runs `work` (starting due jobs, returning how many it started) until it starts none, then sleeps until the next
 * poll or until `jobsQueued()` wakes it (a job was queued, or one settled and left room). Jobs live in the store,
 * so a restart or another process resumes them.
 */
export class QueueWorker implements WorkSignal {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private stopped = true;

  constructor(
    private readonly work: () => Promise<number>,
    private readonly pollMs: number,
    private readonly logger: Logger,
    /** Resolves once the jobs `work` started have settled. */
    private readonly idle: () => Promise<void> = async () => {},
  ) {}

  start(): void {
    this.stopped = false;
    this.jobsQueued();
  }

  jobsQueued(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.stopped) return;
      if (this.wakeAgain) {
        this.wakeAgain = false;
        this.jobsQueued();
      } else {
        this.timer = setTimeout(() => this.jobsQueued(), this.pollMs);
        this.timer.unref();
      }
    });
  }

  /** Stops polling and waits for the jobs in flight, so shutdown never cuts a delivery half way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    await this.idle();
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (await this.work()) > 0) {
        /* keep going while batches come back full of work */
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'queue worker could not run; will retry at the next poll');
    }
  }
}
