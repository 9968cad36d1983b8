import type { L1ServerUrl } from '../../domain/l1-server.js';
import type { IssuedToken } from '../../domain/revocation.js';
import type { Username } from '../../domain/user.js';

/**
 * Remembers which tokens were issued (by hash, never the token), so that logout and detach can find the
 * scoped tokens of a session or of an L1 server. Verification never reads it: tokens are stateless.
 * "Unexpired" means `expiresAt > now`, as for tokens themselves; lists have no particular order.
 */
export interface IssuedTokenRegistry {
  /** Records an issued token. Idempotent for the same `tokenHash`. */
  add(token: IssuedToken): Promise<void>;
  /** Unexpired tokens created by the session whose `jti` is `sessionJti`. */
  listActiveBySession(sessionJti: string, now: Date): Promise<IssuedToken[]>;
  /** Every unexpired token of the user, scoped or not. */
  listActiveByUser(username: Username, now: Date): Promise<IssuedToken[]>;
  /** Unexpired tokens of the user scoped to one L1 server, from any session. */
  listActiveScoped(username: Username, l1Server: L1ServerUrl, now: Date): Promise<IssuedToken[]>;
  /** Forgets tokens that expired before `now`; returns how many. */
  deleteExpired(now: Date): Promise<number>;
}
