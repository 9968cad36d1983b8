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

/** Writes a {@link KitResponse} on a node:http (or Express) response; `Set-Cookie` is appended, not replaced. */
export function send(res: ServerResponse, answer: KitResponse): void {
  if (res.headersSent) return; // the application answered itself (e.g. from a hook)
  for (const [name, value] of Object.entries(answer.headers)) {
    if (name.toLowerCase() === 'set-cookie') res.appendHeader(name, value);
    else res.setHeader(name, value);
  }
  res.statusCode = answer.status;
  res.end(answer.body);
}
