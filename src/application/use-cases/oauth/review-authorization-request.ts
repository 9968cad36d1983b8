// Rule (API.md §2.3, §2.5): a "Sign in with L2" request names a client — an L1 server L2 may talk to, or a client
// whose metadata document passes the checks — a redirect URI of that client (under the L1 server's URL, or exactly
// one of the document's redirect_uris), and an S256 PKCE challenge; anything else is answered with an error page,
// never a redirect. L2's own origin is no client.
import {
  parseAuthorizationRequest,
  type AuthorizationRequest,
  type AuthorizationRequestError,
} from '../../../domain/oauth.js';
import { err, type Result } from '../../../domain/result.js';
import type { DestinationPolicy } from '../../ports/destination-policy.js';
import type { ClientRegistry } from '../../services/client-registry.js';
import { canParseUrl } from '../../../domain/url-parse.js';

export class ReviewAuthorizationRequest {
  constructor(
    private readonly destinations: DestinationPolicy,
    /** This service's own URL: no L1 server lives on its origin. */
    private readonly self: string,
    private readonly clients: ClientRegistry,
  ) {}

  async execute(
    query: Readonly<Record<string, string | undefined>>,
  ): Promise<Result<AuthorizationRequest, AuthorizationRequestError>> {
    const client = await this.lookUp(query.client_id);
    if (!client.ok) return client;
    const request = parseAuthorizationRequest(query, client.value ?? undefined);
    if (!request.ok) return request;
    // The consent page would name L2 itself as the render server, and send its code to one of L2's own pages.
    if (new URL(request.value.clientId).origin === new URL(this.self).origin)
      return err({ type: 'invalid_client', detail: 'client_id must be an L1 server, not L2 itself.' });
    // Checked before the page is shown: a server L2 would never send notices to is no client either.
    const refusal = await this.destinations.check(request.value.clientId);
    if (refusal) return err({ type: 'invalid_client', detail: `This L1 server cannot be used: ${refusal}.` });
    return request;
  }

  /** The client's document when it is a document client; null for an L1 server URL (or a client_id parsing refuses). */
  private async lookUp(clientId: string | undefined) {
    const client = await this.clients.resolve(clientId ?? '');
    if (client.ok)
      return { ok: true as const, value: client.value.kind === 'document' ? client.value.document : null };
    // Not a URL at all: the request's parser says so, in its words.
    return clientId === undefined || !canParseUrl(clientId)
      ? { ok: true as const, value: null }
      : err<AuthorizationRequestError>({ type: 'invalid_client', detail: client.error });
  }
}
