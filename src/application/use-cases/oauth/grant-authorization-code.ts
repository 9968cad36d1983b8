// Rule (API.md §2.3): when the signed-in user allows an L1 server, the attachment is recorded as a renderer attach
// records it, and a single-use code living 60 seconds goes back to the L1 server through the browser — the token
// itself never passes through a URL: the L1 server fetches it with the code and its PKCE verifier.
import { grantedCode, redirectWith, type AuthorizationRequest } from '../../../domain/oauth.js';
import type { OpenIdGrant } from '../../../domain/openid.js';
import { ok, type Result } from '../../../domain/result.js';
import type { AuthorizationCodeStore } from '../../ports/authorization-code-store.js';
import type { Clock } from '../../ports/clock.js';
import type { OneTimeCodes } from '../../ports/one-time-codes.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { GrantError, ScopedTokenGrant } from '../../services/scoped-token-grant.js';

export class GrantAuthorizationCode {
  constructor(
    private readonly grant: ScopedTokenGrant,
    private readonly codes: OneTimeCodes,
    private readonly store: AuthorizationCodeStore,
    private readonly clock: Clock,
  ) {}

  /** Answers where to send the browser: `redirect_uri?code=…&state=…`. */
  async execute(input: {
    session: AuthenticatedToken;
    request: AuthorizationRequest;
    /** What an OpenID Connect request was granted (API.md §2.5), kept with the code for its ID token. */
    openid?: OpenIdGrant | null;
  }): Promise<Result<{ redirectTo: string }, GrantError>> {
    const { session, request } = input;
    const attached = await this.grant.attach(session, request.clientId);
    if (!attached.ok) return attached;
    const { code, codeHash } = this.codes.issue();
    await this.store.save(
      grantedCode({
        codeHash,
        session: session.claims,
        sessionTokenHash: session.tokenHash,
        request,
        now: this.clock.now(),
        openid: input.openid ?? null,
      }),
    );
    return ok({ redirectTo: redirectWith(request.redirectUri, { code, state: request.state }) });
  }
}
