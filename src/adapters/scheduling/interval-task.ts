import type { Logger } from 'pino';

/** Runs a task every `intervalMs` in-process (e.g. the hourly revocation cleanup); failures are logged, not fatal. */
export class IntervalTask {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly name: string,
    private readonly task: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async runOnce(): Promise<void> {
    try {
      const result = await this.task();
      this.logger.info({ task: this.name, result }, 'scheduled task ran');
    } catch (error) {
      this.logger.warn({ task: this.name, err: error }, 'scheduled task failed');
    }
  }
}
