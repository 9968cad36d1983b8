import parse from 'co-body';
import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import { HttpProblem } from './problem.js';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** Activities from peers may carry long content: inboxes take four times the API's limit. */
export const INBOX_BODY_LIMIT_BYTES = 256 * 1024;
const JSON_TYPES = ['application/json'];
const FORM_TYPES = ['application/x-www-form-urlencoded'];
const ACTIVITY_TYPES = ['application/activity+json', 'application/ld+json'];
/** The personal and the shared inbox, in every spelling the router takes for them (any case, a trailing slash). */
export const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox\/?$/i;

declare module 'koa' {
  interface Request {
    /** The parsed JSON or form body; `{}` when the request has none. */
    body?: unknown;
    /** The body exactly as received (for signatures and digests). */
    rawBody?: string;
    /** An inbox body's exact bytes, whose digest its signature covers. */
    rawBytes?: Buffer;
  }
}

const hasBody = (ctx: Context): boolean =>
  ctx.get('Transfer-Encoding') !== '' || Number(ctx.get('Content-Length') || '0') > 0;

/** Forms are flat name=value pairs: no nesting, no arrays, no dotted paths (unlike qs). */
const flatForm = { parse: (text: string) => Object.fromEntries(new URLSearchParams(text)) };

/**
 * JSON and form bodies up to 64 KiB, read with co-body (raw-body underneath: the limit is enforced while
 * streaming, so a huge body is cut off early). Any other content type is refused with 415 before reading — in
 * particular text/plain, which a cross-site page could send without a CORS preflight. `__proto__` keys are
 * dropped rather than refused: they are well-formed JSON and must neither fail nor pollute anything.
 */
export function bodyMiddleware() {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.request.body = {};
    if (ctx.method === 'POST' && INBOX_PATH.test(ctx.path)) {
      await readActivity(ctx);
    } else if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) && hasBody(ctx)) {
      const options = { limit: BODY_LIMIT_BYTES, encoding: 'utf8' as const, returnRawBody: true as const };
      let result: { parsed: unknown; raw: string };
      try {
        if (ctx.request.is(JSON_TYPES)) {
          result = await parse.json(ctx, {
            ...options,
            strict: true,
            onProtoPoisoning: 'remove',
          } as parse.Options);
        } else if (ctx.request.is(FORM_TYPES)) {
          result = await parse.form(ctx, { ...options, qs: flatForm } as parse.Options);
        } else {
          throw new HttpProblem(
            415,
            'unsupported_media_type',
            'Send application/json or application/x-www-form-urlencoded.',
          );
        }
      } catch (error) {
        if (error instanceof HttpProblem) throw error;
        const status = (error as { status?: number }).status;
        if (status === 413)
          throw new HttpProblem(413, 'payload_too_large', 'The request body is larger than 64 KiB.');
        throw new HttpProblem(400, 'invalid_request', 'The request body is not valid JSON or form data.');
      }
      ctx.request.body = result.parsed;
      ctx.request.rawBody = result.raw;
    }
    await next();
  };
}

/** Drops `__proto__` keys, as the JSON bodies of the API do. */
const withoutProto = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/**
 * An inbox body: ActivityStreams JSON (`application/activity+json`, or `application/ld+json` with any profile) up to
 * 256 KiB, kept as received for the digest check.
 */
async function readActivity(ctx: Context): Promise<void> {
  if (!ctx.request.is(ACTIVITY_TYPES)) {
    throw new HttpProblem(
      415,
      'unsupported_media_type',
      'An inbox takes application/activity+json or application/ld+json.',
    );
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, {
      limit: INBOX_BODY_LIMIT_BYTES,
      length: ctx.get('Content-Length') || undefined,
    });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413)
      throw new HttpProblem(413, 'payload_too_large', 'The activity is larger than 256 KiB.');
    throw new HttpProblem(400, 'invalid_request', 'The request body could not be read.');
  }
  try {
    ctx.request.body = JSON.parse(bytes.toString('utf8'), withoutProto) as unknown;
  } catch {
    throw new HttpProblem(400, 'invalid_request', 'The request body is not valid JSON.');
  }
  ctx.request.rawBytes = bytes;
}
