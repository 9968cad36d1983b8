// Rule (API.md §2.3): a "Sign in with L2" request names an L1 server L2 may talk to, a redirect URI on that server,
// and an S256 PKCE challenge; anything else is answered with an error page, never a redirect. L2's own origin is no
// L1 server.
import {
  parseAuthorizationRequest,
  type AuthorizationRequest,
  type AuthorizationRequestError,
} from '../../../domain/oauth.js';
import { err, type Result } from '../../../domain/result.js';
import type { DestinationPolicy } from '../../ports/destination-policy.js';

export class ReviewAuthorizationRequest {
  constructor(
    private readonly destinations: DestinationPolicy,
    /** This service's own URL: no L1 server lives on its origin. */
    private readonly self: string,
  ) {}

  async execute(
    query: Readonly<Record<string, string | undefined>>,
  ): Promise<Result<AuthorizationRequest, AuthorizationRequestError>> {
    const request = parseAuthorizationRequest(query);
    if (!request.ok) return request;
    // The consent page would name L2 itself as the render server, and send its code to one of L2's own pages.
    if (new URL(request.value.clientId).origin === new URL(this.self).origin)
      return err({ type: 'invalid_client', detail: 'client_id must be an L1 server, not L2 itself.' });
    // Checked before the page is shown: a server L2 would never send notices to is no client either.
    const refusal = await this.destinations.check(request.value.clientId);
    if (refusal) return err({ type: 'invalid_client', detail: `This L1 server cannot be used: ${refusal}.` });
    return request;
  }
}
