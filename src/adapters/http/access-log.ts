import type { Logger } from 'pino';

/** An answer that took this long is logged at info, whatever its status. */
export const SLOW_REQUEST_MS = 1000;

export interface AccessLine {
  readonly reqId: string;
  readonly method: string;
  /** The route pattern (`/assets/:name`), null when no route matched. */
  readonly route: string | null;
  /** The path without its query string (a query may hold a token). */
  readonly path: string | undefined;
  readonly status: number;
  readonly ms: number;
}

/**
 * The one line per request: at info for a server error or a slow answer — what an operator looks for — and at debug
 * for every other, since at tens of thousands of verifications a second a line per answer costs more than the
 * answer does.
 */
export function logRequest(logger: Logger, line: AccessLine): void {
  const level = line.status >= 500 || line.ms >= SLOW_REQUEST_MS ? 'info' : 'debug';
  if (logger.isLevelEnabled(level)) logger[level]({ ...line, ms: Math.round(line.ms * 10) / 10 }, 'request');
}
