// Rule: a signed-in user (with an unscoped token) gets a token scoped to one L1 server, never outliving the
// session or the attachment, and the attachment is recorded — at most MAX_ATTACHED_L1_SERVERS of them per user, at
// most MAX_TOKENS_PER_L1_SERVER live tokens each, every grant spending from the user's budget of writes. A scoped
// token cannot mint another. Renderer attach grants in one go; "Sign in with L2" records the attachment at Allow
// and issues the token when the L1 server exchanges its code.
import {
  MAX_ATTACHED_L1_SERVERS,
  MAX_TOKENS_PER_L1_SERVER,
  type L1ServerUrl,
} from '../../domain/l1-server.js';
import { err, ok, type Result } from '../../domain/result.js';
import { issuedTokenOf, type IssuedToken } from '../../domain/revocation.js';
import { isScoped, type TokenClaims } from '../../domain/token.js';
import type { Username } from '../../domain/user.js';
import type { Clock } from '../ports/clock.js';
import type { DestinationPolicy } from '../ports/destination-policy.js';
import type { IssuedTokenRegistry } from '../ports/issued-token-registry.js';
import type { RateLimit } from '../ports/rate-limit.js';
import type { RendererAttachments } from '../ports/renderer-attachments.js';
import type { AuthenticateToken } from './authenticate-token.js';
import type { RevocationWriter } from './revocation-writer.js';
import type { IssuedTokenView } from './token-issuer.js';

export type GrantError =
  | { readonly type: 'forbidden'; readonly detail: string }
  | { readonly type: 'invalid_request'; readonly detail: string }
  | { readonly type: 'token_revoked' }
  | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

/** The session a grant comes from: its claims and the hash of its token (to see whether it was revoked since). */
export interface GrantingSession {
  readonly claims: TokenClaims;
  readonly tokenHash: string;
}

export class ScopedTokenGrant {
  constructor(
    private readonly attachments: RendererAttachments,
    private readonly destinations: DestinationPolicy,
    private readonly authenticate: AuthenticateToken,
    private readonly writer: RevocationWriter,
    private readonly clock: Clock,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly writes: RateLimit,
  ) {}

  /** Records the attachment the grant is for, after every check that can refuse it; issues nothing. */
  async attach(session: GrantingSession, l1Server: L1ServerUrl): Promise<Result<void, GrantError>> {
    if (isScoped(session.claims)) {
      return err({
        type: 'forbidden',
        detail: 'A token scoped to an L1 server cannot attach another renderer.',
      });
    }
    const refusal = await this.destinations.check(l1Server);
    if (refusal)
      return err({ type: 'invalid_request', detail: `This L1 server cannot be used: ${refusal}.` });
    // A grant mints a token and may later cost a notice: it spends from the same budget as the user's writes.
    const verdict = await this.writes.consume(session.claims.username);
    if (verdict.limited) return err({ type: 'rate_limited', retryAfterSeconds: verdict.retryAfterSeconds });
    const attached = await this.attachments.attach(
      session.claims.username,
      l1Server,
      this.clock.now(),
      MAX_ATTACHED_L1_SERVERS,
    );
    if (!attached) {
      return err({
        type: 'forbidden',
        detail: `At most ${MAX_ATTACHED_L1_SERVERS} L1 servers can be attached at once; detach one first.`,
      });
    }
    return ok(undefined);
  }

  /**
   * Once `scoped` is recorded as issued: a logout or a detach that committed while it was issued may have missed it,
   * so it is revoked when its session is revoked or its attachment gone now — no scoped token outlives either. Then
   * the oldest tokens for the server beyond MAX_TOKENS_PER_L1_SERVER are revoked.
   */
  async confirm(
    session: GrantingSession,
    l1Server: L1ServerUrl,
    scoped: IssuedTokenView,
    /** The record written for `scoped`, when the caller added to it (a document client's logout URI). */
    record: IssuedToken = issuedTokenOf(scoped.claims, scoped.tokenHash),
  ): Promise<Result<IssuedTokenView, GrantError>> {
    const issued = record;
    if (await this.authenticate.isRevoked(session.tokenHash)) {
      await this.writer.revoke([issued]);
      return err({ type: 'token_revoked' });
    }
    const still = await this.attachments.list(session.claims.username);
    if (!still.some((attachment) => attachment.l1Server === l1Server)) {
      await this.writer.revoke([issued]);
      return err({ type: 'forbidden', detail: 'This L1 server was detached meanwhile; attach it again.' });
    }
    await this.revokeOldest(session.claims.username, l1Server);
    return ok(scoped);
  }

  /** Keeps at most MAX_TOKENS_PER_L1_SERVER live tokens for the server: the oldest beyond it are revoked. */
  private async revokeOldest(username: Username, l1Server: L1ServerUrl): Promise<void> {
    const live = await this.writer.unrevoked(
      await this.issuedTokens.listActiveScoped(username, l1Server, this.clock.now()),
    );
    if (live.length <= MAX_TOKENS_PER_L1_SERVER) return;
    const newestFirst = [...live].sort(
      (a, b) => b.issuedAt.getTime() - a.issuedAt.getTime() || (a.jti < b.jti ? 1 : -1),
    );
    await this.writer.revoke(newestFirst.slice(MAX_TOKENS_PER_L1_SERVER));
  }
}
