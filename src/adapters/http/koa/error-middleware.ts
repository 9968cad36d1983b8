import { personalPage } from './security-headers.js';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import {
  OverloadedError,
  StoreUnavailableError,
  TransparencyLogUnavailableError,
} from '../../../application/ports/errors.js';
import type { NunjucksViews } from '../../views/nunjucks/nunjucks-views.js';
import { prefersHtml } from '../shared/negotiate.js';
import { HttpProblem, OAuthProblem, oauthErrorBody, problemBody, statusTitle } from './problem.js';

/** Codes for errors raised by Koa and its middleware (body parser, router) rather than by our routes. */
const FRAMEWORK_CODES: Record<number, [string, string]> = {
  400: ['invalid_request', 'The request body is malformed.'],
  404: ['not_found', 'There is nothing at this address.'],
  405: ['method_not_allowed', 'This method is not allowed here.'],
  413: ['payload_too_large', 'The request body is larger than 64 KiB.'],
  415: ['unsupported_media_type', 'Send application/json or application/x-www-form-urlencoded.'],
};

function toProblem(error: unknown, logger: Logger, ctx: Context): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof StoreUnavailableError) {
    logger.error({ err: error, reqId: ctx.state.requestId, path: ctx.path }, 'store unavailable');
    return new HttpProblem(503, 'unavailable', 'The service cannot reach its store. Try again shortly.', {
      headers: { 'Retry-After': '5' },
    });
  }
  if (error instanceof TransparencyLogUnavailableError) {
    // Why is in the error line the transparency log wrote when it found the mismatch; this says which request met it.
    logger.warn(
      { reqId: ctx.state.requestId, path: ctx.path },
      'write refused: the transparency log cannot sign',
    );
    return new HttpProblem(
      503,
      'unavailable',
      'The activity log cannot be signed now, so no change is accepted. Try again later.',
      { headers: { 'Retry-After': '60' } },
    );
  }
  if (error instanceof OverloadedError) {
    logger.warn({ reqId: ctx.state.requestId, path: ctx.path, reason: error.message }, 'overloaded');
    return new HttpProblem(503, 'unavailable', 'The service is busy. Try again shortly.', {
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  const status = (error as { status?: unknown }).status;
  const framework = typeof status === 'number' ? FRAMEWORK_CODES[status] : undefined;
  if (framework) return new HttpProblem(status as number, framework[0], framework[1]);
  logger.error(
    { err: error, reqId: ctx.state.requestId, method: ctx.method, path: ctx.path },
    'unhandled error',
  );
  return new HttpProblem(500, 'internal_error', 'internal_error');
}

/**
 * Outermost handler: every failure becomes an RFC 9457 problem (or an error page for a browser) with the status
 * of API.md. Nothing internal — message, stack, SQL — reaches the client; 5xx bodies say only internal_error.
 */
export function errorMiddleware(
  logger: Logger,
  views: NunjucksViews,
  csrfTokenFor: (ctx: Context, session: string | null) => string,
  viewerOf: (ctx: Context) => Promise<{ username: string; session: string } | null>,
) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new HttpProblem(404, 'not_found', 'There is nothing at this address.');
        if (ctx.status === 405 || ctx.status === 501) {
          throw new HttpProblem(405, 'method_not_allowed', `${ctx.method} is not allowed here.`);
        }
      }
    } catch (error) {
      const problem = toProblem(error, logger, ctx);
      ctx.status = problem.status;
      for (const [name, value] of Object.entries(problem.extra.headers ?? {})) ctx.set(name, value);
      if (problem instanceof OAuthProblem) {
        // Whatever Accept says: an OAuth client reads RFC 6749 JSON, and only that (RFC 6749 §5.2).
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'application/json';
        ctx.body = oauthErrorBody(problem);
        return;
      }
      // The error body (page or problem+json) depends on Accept, so caches must key on it too.
      ctx.vary('Accept');
      if (prefersHtml(ctx.get('Accept'))) {
        ctx.type = 'text/html; charset=utf-8';
        // A failing store must not fail the error page too.
        const signedIn = problem.status === 503 ? null : await viewerOf(ctx).catch(() => null);
        ctx.body = views.render(
          'error',
          {
            currentUser: signedIn?.username ?? null,
            csrfToken: csrfTokenFor(ctx, signedIn?.session ?? null),
            path: ctx.path,
          },
          { title: `${problem.status} ${statusTitle(problem.status)}`, detail: problem.detail },
        );
        personalPage(ctx, signedIn !== null);
      } else {
        ctx.type = 'application/problem+json';
        ctx.body = problemBody(problem);
      }
    }
  };
}
