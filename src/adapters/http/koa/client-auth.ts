// The client of a token, introspection or revocation request (API.md §2.5), read from the body and the
// Authorization header; the routes call this so that their own code stays about their endpoint.
import type { Context } from 'koa';
import type { ClientCredentials } from '../../../domain/client-authentication.js';
import { clientCredentialsOf } from '../shared/client-credentials.js';

/** The request's client credentials: body fields and `Authorization: Basic`. */
export function requestClientCredentials(ctx: Context): ClientCredentials {
  const header = ctx.get('authorization');
  return clientCredentialsOf(
    (ctx.request.body ?? {}) as Record<string, unknown>,
    header === '' ? undefined : header,
  );
}
