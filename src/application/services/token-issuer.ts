import type { L1ServerUrl } from '../../domain/l1-server.js';
import { issuedTokenOf, type IssuedToken } from '../../domain/revocation.js';
import type { SignInMethods } from '../../domain/sign-in-methods.js';
import { scopedClaims, sessionClaims, type TokenClaims } from '../../domain/token.js';
import type { Username } from '../../domain/user.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { IssuedTokenRegistry } from '../ports/issued-token-registry.js';
import type { TokenCodec } from '../ports/token-codec.js';

export interface IssuedTokenView {
  readonly token: string;
  readonly tokenHash: string;
  readonly claims: TokenClaims;
  readonly expiresAt: Date;
}

/** Signs tokens and remembers them (by hash), so logout can later find a session's scoped tokens. */
export class TokenIssuer {
  constructor(
    private readonly codec: TokenCodec,
    private readonly issuedTokens: IssuedTokenRegistry,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly l2Server: string,
  ) {}

  /** A session token saying how its person signed in (`amr`). */
  issueSession(username: Username, amr: SignInMethods): Promise<IssuedTokenView> {
    return this.issue(this.sessionClaims(username, amr));
  }

  /**
   * A session token signed but not yet recorded: its record is for the caller to write with what else it writes
   * (registration stores the user and its first session together).
   */
  signSession(username: Username, amr: SignInMethods): { view: IssuedTokenView; record: IssuedToken } {
    return this.sign(this.sessionClaims(username, amr));
  }

  issueScoped(session: TokenClaims, l1Server: L1ServerUrl): Promise<IssuedTokenView> {
    return this.issue(this.scopedClaims(session, l1Server));
  }

  /**
   * A scoped token signed but not yet recorded: a code exchange records it only once its code is redeemed, so that
   * a second, losing exchange leaves nothing behind. `record` writes it as `issueScoped` would have.
   */
  signScoped(
    session: TokenClaims,
    l1Server: L1ServerUrl,
    scope?: string,
  ): { view: IssuedTokenView; record: IssuedToken } {
    return this.sign(this.scopedClaims(session, l1Server, scope));
  }

  /** Records a token signed by `signScoped` (or `signSession`) as issued. */
  record(token: IssuedToken): Promise<void> {
    return this.issuedTokens.add(token);
  }

  private scopedClaims(session: TokenClaims, l1Server: L1ServerUrl, scope?: string): TokenClaims {
    return scopedClaims({
      session,
      l1Server,
      now: this.clock.now(),
      jti: this.ids.newId(),
      ...(scope === undefined ? {} : { scope }),
    });
  }

  private async issue(claims: TokenClaims): Promise<IssuedTokenView> {
    const { view, record } = this.sign(claims);
    await this.issuedTokens.add(record);
    return view;
  }

  private sign(claims: TokenClaims): { view: IssuedTokenView; record: IssuedToken } {
    const { token, tokenHash } = this.codec.sign(claims);
    const record = issuedTokenOf(claims, tokenHash);
    return { view: { token, tokenHash, claims, expiresAt: record.expiresAt }, record };
  }

  private sessionClaims(username: Username, amr: SignInMethods): TokenClaims {
    return sessionClaims({
      username,
      l2Server: this.l2Server,
      now: this.clock.now(),
      jti: this.ids.newId(),
      amr,
    });
  }
}
