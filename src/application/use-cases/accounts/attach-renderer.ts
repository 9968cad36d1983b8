// Rule: a signed-in user (with an unscoped token) attaches an L1 server and gets, at once, a token scoped to it —
// the grant's rules (services/scoped-token-grant.ts): never outliving the session or the attachment, a bounded
// number of attachments and tokens, every attach spending from the user's budget of writes.
import type { L1ServerUrl } from '../../../domain/l1-server.js';
import type { Result } from '../../../domain/result.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';
import type { GrantError, ScopedTokenGrant } from '../../services/scoped-token-grant.js';
import type { IssuedTokenView, TokenIssuer } from '../../services/token-issuer.js';

export type AttachRendererError = GrantError;

export class AttachRenderer {
  constructor(
    private readonly grant: ScopedTokenGrant,
    private readonly issuer: TokenIssuer,
  ) {}

  async execute(input: {
    session: AuthenticatedToken;
    l1Server: L1ServerUrl;
  }): Promise<Result<IssuedTokenView, AttachRendererError>> {
    const { session, l1Server } = input;
    // Recorded first: an attachment over the limit must not leave a token behind.
    const attached = await this.grant.attach(session, l1Server);
    if (!attached.ok) return attached;
    const scoped = await this.issuer.issueScoped(session.claims, l1Server);
    return this.grant.confirm(session, l1Server, scoped);
  }
}
