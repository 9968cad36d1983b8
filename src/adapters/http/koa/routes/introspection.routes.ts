// RFC 7662 introspection (API.md §2.2): the answer /auth/verify gives, in the shape OAuth libraries read.
import type { Context } from 'koa';
import { INACTIVE_ANSWER, activeAnswer } from '../../hot-paths/introspection-answer.js';
import { clientAddress } from '../../shared/client-address.js';
import { requestClientCredentials } from '../client-auth.js';
import type { HttpDependencies } from '../dependencies.js';
import { BODY_ERRORS, REVOCATIONS_UNREADABLE } from '../errors/edge-errors.js';
import { INTROSPECTION_ERRORS } from '../errors/oauth-errors.js';
import * as oauth from '../../shared/oauth-schemas.js';
import { body, json } from '../openapi-docs.js';
import { sendAnswer } from '../respond.js';
import type { RouteTable } from '../route-table.js';

/** The introspection request's fields, or the RFC 6749 refusal of a request without a token. */
export function introspectionInput(ctx: Context) {
  const parsed = oauth.IntrospectionRequest.safeParse(ctx.request.body ?? {});
  if (!parsed.success || typeof parsed.data.token !== 'string')
    throw INTROSPECTION_ERRORS.problem({ type: 'invalid_request', detail: 'token is required.' });
  return {
    token: parsed.data.token,
    resource: parsed.data.resource ?? null,
    client: requestClientCredentials(ctx),
    clientAddress: clientAddress(ctx),
  };
}

export function introspectionRoutes(routes: RouteTable, deps: HttpDependencies): void {
  routes.post(
    '/oauth/introspect',
    {
      summary:
        'RFC 7662 introspection: active exactly when /auth/verify would accept the token from its audience: ' +
        '`resource`, else the client the caller authenticates as; a session token only without an audience',
      description:
        'Open to any caller, as /auth/verify is; `{"active": false}` says nothing more. A token this service ' +
        'signed always gets its true answer; tokens that do not verify are counted per client address (RFC 7662 ' +
        '§2.1), and past the budget such a token is refused with 429.',
      request: body(oauth.IntrospectionRequest),
      responses: { 200: json(oauth.IntrospectionResponse, 'Active (with its claims), or inactive') },
      refusals: [BODY_ERRORS, INTROSPECTION_ERRORS, REVOCATIONS_UNREADABLE],
    },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const result = await deps.useCases.introspectToken.execute(introspectionInput(ctx));
      if (!result.ok) throw INTROSPECTION_ERRORS.problem(result.error);
      sendAnswer(ctx, result.value ? activeAnswer(result.value.claims) : INACTIVE_ANSWER);
    },
  );
}
