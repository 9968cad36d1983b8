// What "Sign in with L2" does for clients identified by documents (API.md §2.5), kept out of the routes: the token
// endpoint's client authentication, and what the consent page shows of a document client.
import type { Context } from 'koa';
import type { KnownClient } from '../../../application/services/client-registry.js';
import type { ClientDocument } from '../../../domain/client-document.js';
import type { AuthorizationRequest } from '../../../domain/oauth.js';
import { requestClientCredentials } from './client-auth.js';
import type { HttpDependencies } from './dependencies.js';
import { TOKEN_REQUEST_ERRORS } from './errors/oauth-errors.js';

const TOKEN_PATH = '/oauth/token';

/**
 * The token request's fields once its client authenticated: `client_id` is then the client however it was named
 * (body, Basic, assertion). A request naming no client keeps its fields (and is refused for the missing client_id).
 */
export async function authenticatedTokenRequest(
  ctx: Context,
  deps: HttpDependencies,
): Promise<{ fields: Record<string, unknown>; client: KnownClient | null }> {
  const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
  const client = await deps.useCases.authenticateClient.execute(
    requestClientCredentials(ctx),
    `${deps.settings.publicUrl}${TOKEN_PATH}`,
  );
  if (!client.ok) throw TOKEN_REQUEST_ERRORS.problem(client.error);
  if (client.value === null) return { fields, client: null };
  return { fields: { ...fields, client_id: client.value.clientId }, client: client.value };
}

/**
 * What the consent page shows of a document client next to its host (API.md §2.5): the name, logo and home page the
 * document claims — shown as claims beside the verified host, never instead of it. Null for an L1 server URL client.
 */
export function consentDocumentView(request: AuthorizationRequest) {
  return clientDocumentView(request.document ?? null);
}

/** The same for any page naming a client (the logout page names it as the consent page does). */
export function clientDocumentView(document: ClientDocument | null) {
  if (!document) return null;
  return {
    host: new URL(document.clientId).host,
    clientName: document.clientName,
    logoUri: document.logoUri,
    clientUri: document.clientUri,
  };
}
