import type { Context, Next } from 'koa';
import getRawBody from 'raw-body';
import {
  BODY_LIMIT_BYTES,
  mediaTypeOf,
  parseStrictJson,
  PRE_READ_BODY,
  withoutProto,
} from '../shared/request-body.js';
import { BODY_ERRORS, INBOX_BODY_ERRORS } from './errors/edge-errors.js';

/** Activities from peers may carry long content: inboxes take four times the API's limit. */
export const INBOX_BODY_LIMIT_BYTES = 256 * 1024;
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
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

/** The media type of the body, lower-cased, without parameters ('' when none is given). */
function mediaType(ctx: Context): string {
  return mediaTypeOf(ctx.get('Content-Type'));
}

/** Reads the body's bytes, refusing more than `limit` (before reading, when Content-Length says so). */
async function readBytes(
  ctx: Context,
  limit: number,
  tooLarge: string,
  refusals: typeof BODY_ERRORS,
): Promise<Buffer> {
  const preRead = ctx.req[PRE_READ_BODY];
  if (preRead) return preRead;
  try {
    return await getRawBody(ctx.req, { limit, length: ctx.get('Content-Length') || undefined });
  } catch (error) {
    if ((error as { status?: number }).status === 413)
      throw refusals.problem({ type: 'payload_too_large', detail: tooLarge });
    throw refusals.problem({ type: 'malformed_body', detail: 'The request body could not be read.' });
  }
}

const NOT_JSON = 'The request body is not valid JSON.';

/**
 * JSON and form bodies up to 64 KiB, read as bytes with raw-body (the limit is enforced while streaming, so a huge
 * body is cut off early) and decoded as UTF-8 (RFC 8259 §8.1: JSON is UTF-8; forms are sent in the page's UTF-8).
 * JSON must be an object or an array; forms are flat name=value pairs (no nesting, no arrays, no dotted paths).
 * Any other content type is refused with 415 before reading — in particular text/plain, which a cross-site page
 * could send without a CORS preflight. See ADR 5.
 */
export function bodyMiddleware() {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.request.body = {};
    if (ctx.method === 'POST' && INBOX_PATH.test(ctx.path)) {
      await readActivity(ctx);
    } else if (UNSAFE_METHODS.has(ctx.method) && hasBody(ctx)) {
      const type = mediaType(ctx);
      if (type !== JSON_TYPE && type !== FORM_TYPE)
        throw BODY_ERRORS.problem({
          type: 'unsupported_media_type',
          detail: 'Send application/json or application/x-www-form-urlencoded.',
        });
      const text = (
        await readBytes(ctx, BODY_LIMIT_BYTES, 'The request body is larger than 64 KiB.', BODY_ERRORS)
      ).toString('utf8');
      if (type === JSON_TYPE) {
        const parsed = parseStrictJson(text);
        if (!parsed) throw BODY_ERRORS.problem({ type: 'malformed_body', detail: NOT_JSON });
        ctx.request.body = parsed.value;
      } else {
        ctx.request.body = Object.fromEntries(new URLSearchParams(text));
      }
      ctx.request.rawBody = text;
    }
    await next();
  };
}

/**
 * An inbox body: ActivityStreams JSON (`application/activity+json`, or `application/ld+json` with any profile) up to
 * 256 KiB, kept as received for the digest check.
 */
async function readActivity(ctx: Context): Promise<void> {
  if (!ctx.request.is(ACTIVITY_TYPES)) {
    throw INBOX_BODY_ERRORS.problem({
      type: 'unsupported_media_type',
      detail: 'An inbox takes application/activity+json or application/ld+json.',
    });
  }
  const bytes = await readBytes(
    ctx,
    INBOX_BODY_LIMIT_BYTES,
    'The activity is larger than 256 KiB.',
    INBOX_BODY_ERRORS,
  );
  try {
    ctx.request.body = JSON.parse(bytes.toString('utf8'), withoutProto) as unknown;
  } catch {
    throw INBOX_BODY_ERRORS.problem({ type: 'malformed_body', detail: NOT_JSON });
  }
  ctx.request.rawBytes = bytes;
}
