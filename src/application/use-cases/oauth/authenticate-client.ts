// Rule (API.md §2.5): the token endpoint authenticates its caller's client before it reads the grant; the rules are
// the ClientAuthentication service's, shared with introspection and revocation.
import type { ClientCredentials } from '../../../domain/client-authentication.js';
import type { Result } from '../../../domain/result.js';
import type {
  ClientAuthentication,
  ClientAuthenticationError,
} from '../../services/client-authentication.js';
import type { KnownClient } from '../../services/client-registry.js';

export class AuthenticateClient {
  constructor(private readonly clients: ClientAuthentication) {}

  /** The client the request authenticates as at `endpoint` (a URL), null when it names none. */
  execute(
    credentials: ClientCredentials,
    endpoint: string,
  ): Promise<Result<KnownClient | null, ClientAuthenticationError>> {
    return this.clients.authenticate(credentials, endpoint);
  }
}
