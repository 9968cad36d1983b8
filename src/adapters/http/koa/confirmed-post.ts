// The signed-in POSTs that change an account — its password, what protects it, the account itself — from the API
// (bearer, or cookie + CSRF) and from the browser's Account page alike: one description, one order of checks.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { AuthenticatedToken } from '../../../application/services/authenticate-token.js';
import { clientAddress, requestAddress } from '../shared/client-address.js';
import type { HttpDependencies } from './dependencies.js';
import { signedInPostDoc } from './openapi-docs.js';
import { formOrJson } from './pages.js';
import type { HttpProblem } from './problem.js';
import { requireSession } from './request-auth.js';
import type { RouteTable } from './route-table.js';
import { validateBody } from './validate.js';

/** Who asks for a change of their own account, and from where. */
export interface AccountAsker {
  readonly session: AuthenticatedToken;
  /** The address the login limits count (an IPv4 address or an IPv6 /64). */
  readonly clientAddress: string;
  /** The request's own address, for the account's history. */
  readonly address: string;
}

/** How such a POST is described: signedInPostDoc's input, and the path's parameters when it has any. */
export type ConfirmedPostDoc<S extends z.ZodType> = Parameters<typeof signedInPostDoc>[0] & {
  readonly body: S;
  readonly params?: z.ZodObject;
};

/**
 * Declares a signed-in POST that changes the account: the session is required before the body is judged (a scoped
 * token is refused whatever it sends), then the body is validated and `handle` runs with the asker; a form whose
 * input is refused is shown again by `show` (the Account page, or the form it came from).
 */
export function confirmedPost<S extends z.ZodType>(
  routes: RouteTable,
  deps: HttpDependencies,
  path: string,
  doc: ConfirmedPostDoc<S>,
  handle: (ctx: Context, asker: AccountAsker, input: z.output<S>) => Promise<void>,
  show: (ctx: Context) => (problem: HttpProblem) => Promise<void>,
): void {
  const described = signedInPostDoc(doc);
  const { params } = doc;
  routes.post(path, params ? { ...described, request: { ...described.request, params } } : described, (ctx) =>
    formOrJson(ctx, show(ctx), async () => {
      const session = await requireSession(ctx, deps);
      const input = validateBody(ctx, doc.body);
      await handle(ctx, { session, clientAddress: clientAddress(ctx), address: requestAddress(ctx) }, input);
    }),
  );
}
