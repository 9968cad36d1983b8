import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KitResponse } from '../types.js';

const MAX_BODY_BYTES = 64 * 1024;

/** Reads a request body (at most 64 KiB; more gives `undefined`, which the receiver refuses). */
export async function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > maxBytes) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * Writes a {@link KitResponse} on a node:http (or Express) response; `Set-Cookie` is appended, not replaced. Never
 * throws: an answer Node refuses to write (e.g. a header value it rejects) becomes a bare `500` — see
 * {@link answerFailed} — since a throw here would surface as an unhandled rejection and end the L1's process.
 */
export function send(res: ServerResponse, answer: KitResponse): void {
  if (res.headersSent) return; // the application answered itself (e.g. from a hook)
  try {
    for (const [name, value] of Object.entries(answer.headers)) {
      if (name.toLowerCase() === 'set-cookie') res.appendHeader(name, value);
      else res.setHeader(name, value);
    }
    res.statusCode = answer.status;
    res.end(answer.body);
  } catch (error) {
    answerFailed(res, error);
  }
}

/**
 * An answer could not be written: a bare `500` with none of the headers set so far (they may be what failed, or a
 * session cookie for a sign-in the browser never hears of) while none are out, otherwise the connection is cut — the
 * client sees a failed request, never half an answer. One line on stderr tells the operator.
 */
export function answerFailed(res: ServerResponse, error: unknown): void {
  const answered = !res.headersSent && bare500(res);
  if (!answered) res.destroy();
  logAnswerFailure(error, answered ? 'answered a bare 500' : 'closed the connection');
}

/** The operator's line for an answer that could not be written: the error's code, never its message or stack. */
export function logAnswerFailure(error: unknown, outcome: string): void {
  const code = (error as { code?: unknown } | undefined)?.code;
  const why = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown error';
  console.error(`l1-kit: could not write an answer (${why}); ${outcome}`);
}

function bare500(res: ServerResponse): boolean {
  try {
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.statusCode = 500;
    res.end();
    return true;
  } catch {
    return false;
  }
}
