// Rule (API.md §2.5, "Client authentication"): at the token, introspection and revocation endpoints a caller names
// its client (body client_id, Basic username with an empty password, or a client assertion's iss/sub — the same
// client each time). A client whose document declares private_key_jwt must prove it with a fresh assertion signed by
// a key of its document (RFC 7523), each jti once across every instance; every other client must not send one. A
// secret of any kind is refused for every client: L2 holds none and never ignores one.
import {
  checkAssertionClaims,
  claimedClient,
  type ClientCredentials,
} from '../../domain/client-authentication.js';
import { err, ok, type Result } from '../../domain/result.js';
import { toSeconds } from '../../domain/token.js';
import type { AssertionReplays } from '../ports/assertion-replays.js';
import type { ClientAssertionSignatures } from '../ports/client-assertion-signatures.js';
import type { Clock } from '../ports/clock.js';
import type { ClientRegistry, KnownClient } from './client-registry.js';

export type ClientAuthenticationError = { readonly type: 'invalid_client'; readonly detail: string };

const invalidClient = (detail: string) => err<ClientAuthenticationError>({ type: 'invalid_client', detail });

export class ClientAuthentication {
  constructor(
    private readonly registry: ClientRegistry,
    private readonly signatures: ClientAssertionSignatures,
    private readonly replays: AssertionReplays,
    private readonly clock: Clock,
    /** PUBLIC_URL and the token endpoint: an assertion's `aud` may name either, or the endpoint called. */
    private readonly audiences: readonly string[],
  ) {}

  /**
   * The client the request authenticates as, or null when it names none; `endpoint` is the URL of the endpoint
   * called (an assertion may name it as its audience).
   */
  async authenticate(
    credentials: ClientCredentials,
    endpoint: string,
  ): Promise<Result<KnownClient | null, ClientAuthenticationError>> {
    const claimed = claimedClient(credentials);
    if (!claimed.ok) return invalidClient(claimed.error);
    if (claimed.value === null) return ok(null);
    const { clientId, assertion } = claimed.value;
    const client = await this.registry.resolve(clientId);
    if (!client.ok) return invalidClient(client.error);
    const requiresAssertion =
      client.value.kind === 'document' && client.value.document.authMethod === 'private_key_jwt';
    if (!requiresAssertion) {
      return assertion === null
        ? ok(client.value)
        : invalidClient('This client does not authenticate with private_key_jwt: send client_id alone.');
    }
    if (assertion === null)
      return invalidClient(
        'This client’s document declares private_key_jwt: a client_assertion is required.',
      );
    const proved = await this.checkAssertion(client.value, assertion, endpoint);
    return proved.ok ? ok(client.value) : proved;
  }

  private async checkAssertion(
    client: KnownClient & { kind: 'document' },
    assertion: string,
    endpoint: string,
  ): Promise<Result<void, ClientAuthenticationError>> {
    const keys = await this.registry.keysOf(client.document);
    if (!keys.ok) return invalidClient(keys.error);
    const claims = await this.signatures.verify(assertion, keys.value);
    if (claims === null)
      return invalidClient(
        'The client assertion is not an ES256 or RS256 JWS signed by a key of the client.',
      );
    const jti = checkAssertionClaims(
      claims,
      client.clientId,
      [...this.audiences, endpoint],
      toSeconds(this.clock.now()),
    );
    if (!jti.ok) return invalidClient(jti.error);
    // Last, once everything else passed: a refused assertion must not use up its jti.
    if (!(await this.replays.firstUse(client.clientId, jti.value)))
      return invalidClient('The client assertion was used before (its jti is spent).');
    return ok(undefined);
  }
}
