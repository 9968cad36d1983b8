import { randomUUID } from 'node:crypto';

/** An id a client or proxy may give a request: short, and safe to put in a header and a log line. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The id of a request, as its logs and its answer (`X-Request-Id`) carry it: the one the client or a proxy sent in
 * `X-Request-Id` when it is a short safe string, else a new one.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SAFE_ID.test(header) ? header : randomUUID();
}
