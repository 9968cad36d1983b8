import type { Context, Next } from 'koa';
import { HttpProblem } from './problem.js';

/** No route reads more than a few short parameters: a cursor, a filter, a webfinger resource. */
export const QUERY_MAX_BYTES = 2048;
export const QUERY_MAX_PARAMETERS = 32;
/**
 * The two pages a client sends a browser to with its request in the query can need more by themselves: an
 * authorization request (state up to 1,024 characters, nonce up to 512, a document URL and a redirect URL, each
 * percent-encoded) and a logout request whose hint is a whole ID token (RS256 signature alone: 342 characters) — and
 * the login page, whose `next` carries a signed-out browser's authorization request, encoded once more.
 */
export const OPENID_QUERY_MAX_BYTES = 8192;
const OPENID_BROWSER_PATHS: ReadonlySet<string> = new Set(['/oauth/authorize', '/oauth/logout', '/login']);

/**
 * Refuses a request target without a path, and long or crowded query strings before anything parses them: Koa's `ctx.query` costs time quadratic in
 * the repeats of one key, and `?a&a&…` fits 8,000 of them in a header — half a second of the event loop each.
 */
export async function queryLimits(ctx: Context, next: Next): Promise<void> {
  // Koa's path is null for a target it cannot parse (`//%20@#` reads as an authority with no path): no route can
  // match it, and every later step expects a path.
  if (typeof ctx.path !== 'string' || !ctx.path.startsWith('/')) {
    throw new HttpProblem(400, 'invalid_request', 'The request target is not a path.');
  }
  const query = ctx.querystring;
  const maxBytes = OPENID_BROWSER_PATHS.has(ctx.path) ? OPENID_QUERY_MAX_BYTES : QUERY_MAX_BYTES;
  if (query.length > maxBytes || query.split('&').length > QUERY_MAX_PARAMETERS) {
    throw new HttpProblem(
      400,
      'invalid_request',
      `The query string may hold at most ${QUERY_MAX_PARAMETERS} parameters and ${maxBytes} bytes.`,
    );
  }
  await next();
}
