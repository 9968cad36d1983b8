// RFC 7009 token revocation (API.md §2.5): a client revokes a token it was given, as a detach would.
import type { HttpDependencies } from '../dependencies.js';
import { requestClientCredentials } from '../client-auth.js';
import { BODY_ERRORS, REVOCATIONS_UNREADABLE } from '../errors/edge-errors.js';
import { REVOCATION_REQUEST_ERRORS } from '../errors/oauth-errors.js';
import * as oauth from '../../shared/oauth-schemas.js';
import { body, json } from '../openapi-docs.js';
import type { RouteTable } from '../route-table.js';

export function revocationRoutes(routes: RouteTable, deps: HttpDependencies): void {
  routes.post(
    '/oauth/revoke',
    {
      summary:
        'RFC 7009 revocation: a client revokes a token scoped to it (the record first, its notice after)',
      description:
        'The client identifies itself (client_id, Basic with an empty password, or private_key_jwt when its ' +
        'document declares it). An unknown, invalid, expired or already revoked token: 200 {} and nothing happens. ' +
        "Another client's token or a session token: 400 unauthorized_client, nothing revoked.",
      request: body(oauth.RevocationRequest),
      responses: { 200: json(oauth.RevocationResponse, 'Revoked, or nothing to revoke') },
      refusals: [BODY_ERRORS, REVOCATION_REQUEST_ERRORS, REVOCATIONS_UNREADABLE],
    },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (typeof fields.token !== 'string' || fields.token === '')
        throw REVOCATION_REQUEST_ERRORS.problem({
          type: 'invalid_request',
          detail: 'token is required, once.',
        });
      const revoked = await deps.useCases.revokeClientToken.execute({
        token: fields.token,
        client: requestClientCredentials(ctx),
      });
      if (!revoked.ok) throw REVOCATION_REQUEST_ERRORS.problem(revoked.error);
      ctx.body = {};
    },
  );
}
