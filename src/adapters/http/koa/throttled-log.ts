import type { Logger } from 'pino';

/**
 * A warning written at most `perMinute` times a minute: anyone can make the inbox refuse a request, so one log line
 * per refusal would let a flood fill the disk. Lines not written are counted, and the next line written says how
 * many were left out.
 */
export class ThrottledLog {
  private windowStart = 0;
  private written = 0;
  private suppressed = 0;

  constructor(
    private readonly logger: Logger,
    private readonly perMinute = 20,
    private readonly now: () => number = Date.now,
  ) {}

  warn(context: Record<string, unknown>, message: string): void {
    const now = this.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.written = 0;
    }
    if (this.written >= this.perMinute) {
      this.suppressed++;
      return;
    }
    this.written++;
    const left = this.suppressed;
    this.suppressed = 0;
    this.logger.warn(left > 0 ? { ...context, suppressed: left } : context, message);
  }
}
