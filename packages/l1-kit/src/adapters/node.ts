/**
 * node:http (and anything built on it that exposes the raw request and response, e.g. Fastify's `request.raw` /
 * `reply.raw`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { L1Kit } from '../kit.js';
import { bearerToken } from '../tokens.js';
import { errorResponse } from '../routes.js';
import type { AuthResult, RouteHooks } from '../types.js';
import { readBody, send } from './io.js';

export { readBody, send };

export interface NodeContext {
  req: IncomingMessage;
  res: ServerResponse;
}

export interface ProtectOptions {
  /** Where the token comes from. Default: the `Authorization: Bearer` header. */
  getToken?: (req: IncomingMessage) => string | undefined | Promise<string | undefined>;
}

/**
 * The kit's routes (notices, sign-in): resolves to `true` when it answered the request, `false` when the request is
 * not one of them.
 */
export function routes(
  kit: L1Kit,
  hooks: RouteHooks<NodeContext> = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const handle = kit.routes(hooks);
  return async (req, res) => {
    const answer = await handle(
      { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: () => readBody(req) },
      { req, res },
    ).catch(errorResponse);
    if (!answer) return false;
    send(res, answer);
    return true;
  };
}

/**
 * Verifies the request's token, then calls `handler` with the user — or answers `401`/`503` itself and never calls
 * `handler`.
 */
export async function authenticate(
  kit: L1Kit,
  req: IncomingMessage,
  res: ServerResponse,
  options: ProtectOptions = {},
): Promise<AuthResult | undefined> {
  try {
    const token = options.getToken ? await options.getToken(req) : bearerToken(req.headers.authorization);
    return await kit.authenticate(token);
  } catch (error) {
    send(res, errorResponse(error));
    return undefined;
  }
}

/** Wraps a handler so it runs only for a verified request. */
export function protect(
  kit: L1Kit,
  handler: (req: IncomingMessage, res: ServerResponse, auth: AuthResult) => unknown,
  options: ProtectOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const auth = await authenticate(kit, req, res, options);
    if (auth) await handler(req, res, auth);
  };
}
