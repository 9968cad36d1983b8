import type { Logger } from 'pino';

/** An answer that took this long is logged at info, whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/** What the request line says of a request; `target` may hold a query string, which is never logged. */
export interface AnsweredRequest {
  readonly reqId: string;
  readonly method: string;
  /** The route pattern (`/assets/:name`), null when no route matched. */
  readonly route: string | null;
  readonly target: string | undefined;
}

/**
 * The one line per request: at info for a server error or a slow answer — what an operator looks for — and at
 * debug for every other, since at tens of thousands of verifications a second a line per answer costs more than
 * the answer does. Status and duration come apart from the rest so that an answer not logged costs two
 * comparisons: `request` is only called for a line that is written.
 */
export function logRequest(logger: Logger, status: number, ms: number, request: () => AnsweredRequest): void {
  const level = status >= 500 || ms >= SLOW_REQUEST_MS ? 'info' : 'debug';
  if (!logger.isLevelEnabled(level)) return;
  const { target, ...rest } = request();
  logger[level]({ ...rest, path: target?.split('?')[0], status, ms: Math.round(ms * 10) / 10 }, 'request');
}
