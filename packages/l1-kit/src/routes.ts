import type { ClientDocument } from './client-document.js';
import { L1KitError } from './errors.js';
import type { NoticeReceiver } from './notices.js';
import type { KitPaths } from './options.js';
import type { SignIn } from './sign-in.js';
import type { KitRequest, KitResponse, RouteHooks } from './types.js';

/** What the routes serve: the kit's paths, the notice receiver mounted for them, and sign-in. */
export interface RouteTargets {
  paths: KitPaths;
  receiver: NoticeReceiver;
  signIn: SignIn;
  /** Document mode: the client document served at `paths.clientDocument`. */
  client: ClientDocument | undefined;
}

/** An error as an answer: its status, headers and RFC 9457 body; anything unexpected is a bare `500`. */
export function errorResponse(error: unknown): KitResponse {
  const known = error instanceof L1KitError ? error : new L1KitError(500, 'internal_error', 'internal_error');
  return {
    status: known.status,
    headers: { ...known.headers, 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' },
    body: JSON.stringify(known.toProblem()),
  };
}

/** See `L1Kit.routes`. */
export function createRoutes<Context>(
  { paths, receiver, signIn, client }: RouteTargets,
  hooks: RouteHooks<Context>,
): (request: KitRequest, context: Context) => Promise<KitResponse | undefined> {
  const { onSignIn } = hooks;
  return async (request, context) => {
    const target = new URL(request.url, 'http://l1.invalid');
    const path = target.pathname.replace(/(.)\/$/, '$1');
    if (request.method === 'POST' && path === paths.notices) {
      return receiver.handle(await request.body(), request.headers['content-type']);
    }
    if (client && request.method === 'GET' && path === paths.clientDocument) return client.response();
    if (!onSignIn || request.method !== 'GET') return undefined; // a HEAD (a prefetch) must not spend a code
    if (path === paths.signIn) {
      try {
        return await signIn.start(target.searchParams.get('returnTo') ?? undefined);
      } catch (error) {
        return errorResponse(error);
      }
    }
    if (path === paths.callback) {
      const query = target.searchParams;
      if (query.has('token') && !query.has('code') && !query.has('error')) {
        // L2's attach form lands here with the token in the URL (API.md §2, "POST /renderers/attach"). It carries no
        // state, so taking it would allow login CSRF: get it out of the address bar and sign in properly instead.
        return {
          status: 303,
          headers: {
            Location: paths.signIn,
            'Cache-Control': 'no-store',
            'Referrer-Policy': 'no-referrer',
          },
        };
      }
      try {
        const cookie = request.headers.cookie;
        const result = await signIn.finish({ url: request.url, cookie });
        await onSignIn(result, context);
        return result.response;
      } catch (error) {
        const answer = errorResponse(error);
        answer.headers['Set-Cookie'] = signIn.cookieClearing();
        return answer;
      }
    }
    return undefined;
  };
}
