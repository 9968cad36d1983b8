/**
 * Express (4 or 5) middleware: thin adapters over the core, typed structurally — Express is not a dependency.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { L1Kit } from '../kit.js';
import { bearerToken } from '../tokens.js';
import { errorResponse } from '../routes.js';
import type { AuthResult, RouteHooks } from '../types.js';
import { answerFailed, readBody, send } from './io.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by `protect()`: the verified user and their token. */
      l2?: AuthResult;
    }
  }
}

/** What the adapters need of Express's request: node's, plus what Express adds. */
export type ExpressRequest = IncomingMessage & { originalUrl?: string; body?: unknown; l2?: AuthResult };
export type ExpressNext = (error?: unknown) => void;
export interface ExpressContext<
  Req extends ExpressRequest = ExpressRequest,
  Res extends ServerResponse = ServerResponse,
> {
  req: Req;
  res: Res;
}

export interface ProtectOptions<Req extends ExpressRequest = ExpressRequest> {
  /** Where the token comes from (e.g. your session). Default: the `Authorization: Bearer` header. */
  getToken?: (req: Req) => string | undefined | Promise<string | undefined>;
}

/**
 * Lets the request through only with a token L2 accepts, and sets `req.l2 = { user, token }`. Otherwise answers
 * itself — `401` (RFC 6750 challenge) or `503` when L2 gives no verdict — and never calls `next`.
 */
export function protect<Req extends ExpressRequest = ExpressRequest>(
  kit: L1Kit,
  options: ProtectOptions<Req> = {},
): (req: Req, res: ServerResponse, next: ExpressNext) => void {
  return (req, res, next) => {
    (async () => {
      let auth: AuthResult;
      try {
        const token = options.getToken ? await options.getToken(req) : bearerToken(req.headers.authorization);
        auth = await kit.authenticate(token);
      } catch (error) {
        send(res, errorResponse(error));
        return;
      }
      req.l2 = auth;
      next();
    })().catch((error: unknown) => answerFailed(res, error)); // never an unhandled rejection
  };
}

/**
 * The kit's routes: `POST /auth/revoke` (revocation notices) and, with `onSignIn`, `GET /auth/login` and
 * `GET /auth/callback` ("Sign in with L2"). Mount before your routes: `app.use(routes(kit, { … }))`. Uses
 * `req.body` when a body parser ran, reads the body itself otherwise.
 */
export function routes<
  Req extends ExpressRequest = ExpressRequest,
  Res extends ServerResponse = ServerResponse,
>(
  kit: L1Kit,
  hooks: RouteHooks<ExpressContext<Req, Res>> = {},
): (req: Req, res: Res, next: ExpressNext) => void {
  const handle = kit.routes(hooks);
  return (req, res, next) => {
    (async () => {
      const answer = await handle(
        {
          method: req.method ?? 'GET',
          url: req.originalUrl ?? req.url ?? '/',
          headers: req.headers,
          body: async () => (req.body !== undefined ? req.body : readBody(req)),
        },
        { req, res },
      ).catch(errorResponse);
      if (answer) send(res, answer);
      else next();
    })().catch((error: unknown) => answerFailed(res, error)); // never an unhandled rejection
  };
}
