// Rule (API.md §2.3, RFC 6749 §4.1.3, RFC 7636): a code is exchanged once, by the client it was issued to, with the
// redirect URI it was issued for and the verifier of its challenge, within 60 seconds, for the token a renderer
// attach would have made. A code presented again is refused and the token its first exchange got is revoked (RFC
// 6749 §4.1.2): whoever presents it twice has it from somewhere. Every refusal issues nothing.
import {
  checkCodeBinding,
  type AuthorizationCode,
  type TokenRequest,
  type TokenRequestError,
} from '../../../domain/oauth.js';
import { err, ok, type Result } from '../../../domain/result.js';
import { L1_SCOPE } from '../../../domain/openid.js';
import type { IssuedToken } from '../../../domain/revocation.js';
import { toSeconds } from '../../../domain/token.js';
import type { AuthorizationCodeStore } from '../../ports/authorization-code-store.js';
import type { Clock } from '../../ports/clock.js';
import type { OneTimeCodes } from '../../ports/one-time-codes.js';
import type { AuthenticateToken } from '../../services/authenticate-token.js';
import type { OpenIdClaims } from '../../services/openid-claims.js';
import type { RevocationWriter } from '../../services/revocation-writer.js';
import type { ScopedTokenGrant } from '../../services/scoped-token-grant.js';
import type { KnownClient } from '../../services/client-registry.js';
import type { TokenIssuer } from '../../services/token-issuer.js';

export interface ExchangedToken {
  readonly token: string;
  /** Seconds until the token expires. */
  readonly expiresIn: number;
  /** The granted scope string: `l1`, or with OpenID Connect `openid l1` / `openid profile l1` (API.md §2.5). */
  readonly scope: string;
  /** The ID token, when `openid` was granted. */
  readonly idToken: string | null;
}

/**
 * A token issued to a document client remembers the backchannel_logout_uri its document has now, when the token is
 * issued (API.md §2.5): every later revocation tells that URI, whatever the document says by then.
 */
const withDocumentClient = (record: IssuedToken, client: KnownClient | null): IssuedToken =>
  client?.kind === 'document' && client.clientId === record.l1Server
    ? { ...record, documentClient: { backchannelLogoutUri: client.document.backchannelLogoutUri } }
    : record;

const invalidGrant = (detail: string) => err<TokenRequestError>({ type: 'invalid_grant', detail });

export class ExchangeAuthorizationCode {
  constructor(
    private readonly store: AuthorizationCodeStore,
    private readonly codes: OneTimeCodes,
    private readonly issuer: TokenIssuer,
    private readonly grant: ScopedTokenGrant,
    private readonly authenticate: AuthenticateToken,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
    private readonly openid: OpenIdClaims,
  ) {}

  /** `client`: the authenticated client; a document client's token remembers its backchannel_logout_uri. */
  async execute(
    request: TokenRequest,
    client: KnownClient | null = null,
  ): Promise<Result<ExchangedToken, TokenRequestError>> {
    const codeHash = this.codes.hashOf(request.code);
    const found = await this.store.find(codeHash);
    if (!found) return invalidGrant('The code is unknown.');
    if (found.usedAt !== null) return this.replayed(found, request);
    const bound = checkCodeBinding(found, request, this.clock.now());
    if (!bound.ok) return bound;
    if (!this.codes.matchesChallenge(request.codeVerifier, found.codeChallenge))
      return invalidGrant('code_verifier does not match the code_challenge.');
    if (found.session.exp <= toSeconds(this.clock.now()))
      return invalidGrant('The session that allowed this code has expired.');

    // Signed before the redemption, so that a second use always finds which token to revoke; recorded after it.
    const scope = found.openid?.scope ?? L1_SCOPE;
    const { view, record: signed } = this.issuer.signScoped(found.session, found.clientId, scope);
    const record = withDocumentClient(signed, client);
    const redemption = await this.store.redeem(codeHash, record, this.clock.now());
    if (!redemption) return invalidGrant('The code is unknown.');
    if (redemption.kind === 'used') return this.replayed(redemption.code, request);
    await this.issuer.record(record);
    const session = { claims: found.session, tokenHash: found.sessionTokenHash };
    const confirmed = await this.grant.confirm(session, found.clientId, view, record);
    if (!confirmed.ok) {
      return invalidGrant(
        confirmed.error.type === 'token_revoked'
          ? 'The session that allowed this code has ended.'
          : 'The L1 server was detached since the code was issued.',
      );
    }
    // A second use that raced this exchange revoked the token already: it is not handed out.
    if (await this.authenticate.isRevoked(view.tokenHash)) return invalidGrant('The code was used twice.');
    const idToken = found.openid ? await this.openid.idToken(found, found.openid) : null;
    return ok({
      token: view.token,
      expiresIn: view.claims.exp - toSeconds(this.clock.now()),
      scope,
      idToken,
    });
  }

  /**
   * A code used before, presented again by its own client as it was issued (client, redirect URI, verifier): its
   * first token is revoked (a notice goes to the L1 server), and this use refused. Anyone else holding the code —
   * read from a URL, without the verifier — is refused and ends nothing: otherwise they could sign the user out.
   */
  private async replayed(
    code: AuthorizationCode,
    request: TokenRequest,
  ): Promise<Result<never, TokenRequestError>> {
    const bound =
      code.clientId === request.clientId &&
      code.redirectUri === request.redirectUri &&
      this.codes.matchesChallenge(request.codeVerifier, code.codeChallenge);
    if (!bound) return invalidGrant('The code is not this client’s, or was issued for another request.');
    if (code.issued) await this.writer.revoke([code.issued]);
    return invalidGrant('The code was used already; the token it gave has been revoked.');
  }
}
