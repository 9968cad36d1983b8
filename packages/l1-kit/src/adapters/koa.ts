/**
 * Koa middleware: thin adapters over the core, typed structurally — Koa is not a dependency.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { L1Kit } from '../kit.js';
import { bearerToken } from '../tokens.js';
import { errorResponse } from '../routes.js';
import type { AuthResult, KitResponse, RouteHooks } from '../types.js';
import { answerFailed, logAnswerFailure, readBody } from './io.js';

/** What the adapters need of Koa's context. */
export interface KoaContext {
  method: string;
  originalUrl: string;
  headers: IncomingHttpHeaders;
  req: IncomingMessage;
  res: ServerResponse;
  /** `request.body` is used when a body parser set it. */
  request: object;
  state: object;
  status: number;
  body: unknown;
  set(field: string, value: string | string[]): void;
  append(field: string, value: string | string[]): void;
}
export type KoaNext = () => Promise<unknown>;

export interface ProtectOptions<Ctx extends KoaContext = KoaContext> {
  /** Where the token comes from (e.g. your session). Default: the `Authorization: Bearer` header. */
  getToken?: (ctx: Ctx) => string | undefined | Promise<string | undefined>;
}

/**
 * Writes a {@link KitResponse} on a Koa context. An answer Node refuses (e.g. a header value it rejects) becomes a
 * bare `500` with none of the headers set so far, as with the other adapters (Koa itself would answer 500 too, but
 * an application's error middleware might not).
 */
export function answer(ctx: KoaContext, response: KitResponse): void {
  try {
    for (const [name, value] of Object.entries(response.headers)) {
      if (name.toLowerCase() === 'set-cookie') ctx.append(name, value);
      else ctx.set(name, value);
    }
    ctx.status = response.status;
    if (response.body !== undefined) ctx.body = response.body;
  } catch (error) {
    if (ctx.res.headersSent) return answerFailed(ctx.res, error);
    for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
    ctx.body = ''; // no text of Koa's own; before the status, as setting a body sets 200
    ctx.status = 500;
    logAnswerFailure(error, 'answered a bare 500');
  }
}

/**
 * Lets the request through only with a token L2 accepts, and sets `ctx.state.l2 = { user, token }`. Otherwise
 * answers itself — `401` (RFC 6750 challenge) or `503` when L2 gives no verdict — and never calls `next`.
 */
export function protect<Ctx extends KoaContext = KoaContext>(
  kit: L1Kit,
  options: ProtectOptions<Ctx> = {},
): (ctx: Ctx, next: KoaNext) => Promise<void> {
  return async (ctx, next) => {
    let auth: AuthResult;
    try {
      const token = options.getToken ? await options.getToken(ctx) : bearerToken(ctx.headers.authorization);
      auth = await kit.authenticate(token);
    } catch (error) {
      answer(ctx, errorResponse(error));
      return;
    }
    (ctx.state as { l2?: AuthResult }).l2 = auth;
    await next();
  };
}

/**
 * The kit's routes: `POST /auth/revoke` (revocation notices) and, with `onSignIn`, `GET /auth/login` and
 * `GET /auth/callback` ("Sign in with L2"). Uses `ctx.request.body` when a body parser ran, reads the body itself
 * otherwise.
 */
export function routes<Ctx extends KoaContext = KoaContext>(
  kit: L1Kit,
  hooks: RouteHooks<Ctx> = {},
): (ctx: Ctx, next: KoaNext) => Promise<void> {
  const handle = kit.routes(hooks);
  return async (ctx, next) => {
    const response = await handle(
      {
        method: ctx.method,
        url: ctx.originalUrl,
        headers: ctx.headers,
        body: async () => {
          const parsed = (ctx.request as { body?: unknown }).body;
          return parsed !== undefined ? parsed : readBody(ctx.req);
        },
      },
      ctx,
    ).catch(errorResponse);
    if (response) answer(ctx, response);
    else await next();
  };
}
