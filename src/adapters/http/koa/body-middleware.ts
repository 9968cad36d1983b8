import { bodyParser } from '@koa/bodyparser';
import type { Context, Next } from 'koa';
import { HttpProblem } from './problem.js';

export const BODY_LIMIT = '64kb';
const ACCEPTED_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

const hasBody = (ctx: Context): boolean =>
  ctx.get('Transfer-Encoding') !== '' || Number(ctx.get('Content-Length') || '0') > 0;

/**
 * JSON and form bodies up to 64 KiB. Any other content type is refused with 415 before parsing — in particular
 * text/plain, which a cross-site page could send without a CORS preflight.
 */
export function bodyMiddleware() {
  const parse = bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: BODY_LIMIT,
    formLimit: BODY_LIMIT,
    encoding: 'utf-8',
  });
  return async (ctx: Context, next: Next): Promise<void> => {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) && hasBody(ctx)) {
      if (!ctx.request.is(ACCEPTED_TYPES)) {
        throw new HttpProblem(
          415,
          'unsupported_media_type',
          'Send application/json or application/x-www-form-urlencoded.',
        );
      }
      const declared = Number(ctx.get('Content-Length') || '0');
      if (declared > 64 * 1024)
        throw new HttpProblem(413, 'payload_too_large', 'The request body is larger than 64 KiB.');
    }
    await parse(ctx, next);
  };
}
