import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';

/** The most of an unread body drained; past it the answer goes out, and the connection is closed after it. */
export const DRAINED_BODY_LIMIT_BYTES = 1024 * 1024;
/** How long the answer waits for a body to arrive before it is sent all the same. */
const DRAIN_WAIT_MS = 5_000;

/**
 * Reads and drops a request body that no route read (a GET with a body, an answer given before the body was
 * needed) before the answer is sent. Node closes a connection whose request still has unread bytes, and closing a
 * TCP socket with unread bytes resets it: the client then loses whatever part of a large answer (a screenshot, a
 * long page) had not reached it yet. At most 1 MiB is drained, for at most 5 s, so nobody can hold an answer back
 * by streaming a body nobody wants.
 */
export async function drainUnreadBody(ctx: Context, next: Next): Promise<void> {
  await next();
  const req = ctx.req;
  if (req.readableEnded || req.readableFlowing) return;
  const length = Number(req.headers['content-length'] ?? 0);
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && !(length > 0 && length <= DRAINED_BODY_LIMIT_BYTES)) return;
  await drained(req);
}

function drained(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', count).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAINED_BODY_LIMIT_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_WAIT_MS);
    req.on('data', count).on('end', done).on('close', done).on('error', done);
  });
}
