// Rule (API.md §2.5, RP-initiated logout): the client is the ID-token hint's audience (a hint signed with the
// ID-token key and issued by this server; an expired one is fine) or `client_id`; both given, they must agree. The
// browser is sent back only to a URL the client declared (`post_logout_redirect_uris`, exactly) or, for an L1 server
// URL client, to one on its URL. Anything else is refused before a page is shown, and nothing is revoked.
import { normaliseL1Server } from '../../../domain/l1-server.js';
import { err, ok, type Result } from '../../../domain/result.js';
import {
  MAX_LOGOUT_STATE_LENGTH,
  postLogoutRedirectAllowed,
  readIdTokenHint,
  refuseLogout,
  type IdTokenHint,
  type LogoutRequest,
  type LogoutRequestError,
} from '../../../domain/rp-logout.js';
import type { IdTokenSigner } from '../../ports/id-token-signer.js';
import type { ClientRegistry } from '../../services/client-registry.js';

export class ReviewLogoutRequest {
  constructor(
    private readonly clients: ClientRegistry,
    private readonly idTokens: IdTokenSigner,
    private readonly issuer: string,
  ) {}

  async execute(
    params: Readonly<Record<string, string | undefined>>,
  ): Promise<Result<LogoutRequest, LogoutRequestError>> {
    const hint = await this.hintOf(params.id_token_hint);
    if (!hint.ok) return hint;
    const named = params.client_id;
    if (hint.value && named !== undefined && named !== hint.value.clientId)
      return refuseLogout('client_id is not the audience of id_token_hint.');
    const clientId = hint.value?.clientId ?? named ?? null;
    const redirectUri = params.post_logout_redirect_uri ?? null;
    const state = params.state ?? null;
    if (state !== null && state.length > MAX_LOGOUT_STATE_LENGTH)
      return refuseLogout(`state must be at most ${MAX_LOGOUT_STATE_LENGTH} characters.`);
    if (clientId === null) {
      if (redirectUri !== null)
        return refuseLogout('post_logout_redirect_uri needs a client: id_token_hint or client_id.');
      return ok({ clientId: null, document: null, hint: null, postLogoutRedirectUri: null, state });
    }
    if (normaliseL1Server(clientId).ok === false)
      return refuseLogout('client_id must be a URL: an L1 server or a client metadata document.');
    const client = await this.clients.resolve(clientId);
    if (!client.ok) return refuseLogout(client.error);
    const document = client.value.kind === 'document' ? client.value.document : null;
    if (redirectUri !== null && !postLogoutRedirectAllowed(redirectUri, client.value.clientId, document))
      return refuseLogout(
        document
          ? 'post_logout_redirect_uri must be one of the client document’s post_logout_redirect_uris.'
          : 'post_logout_redirect_uri must be a URL on the L1 server, under its path.',
      );
    return ok({
      clientId: client.value.clientId,
      document,
      hint: hint.value,
      postLogoutRedirectUri: redirectUri,
      state,
    });
  }

  private async hintOf(token: string | undefined): Promise<Result<IdTokenHint | null, LogoutRequestError>> {
    if (token === undefined) return ok(null);
    const claims = await this.idTokens.signedClaims(token);
    if (claims === null)
      return err({ type: 'invalid_logout_request', detail: 'id_token_hint does not verify.' });
    return readIdTokenHint(claims, this.issuer);
  }
}
