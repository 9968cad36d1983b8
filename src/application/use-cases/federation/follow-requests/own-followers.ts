// Rule: a person's followers and follow requests are managed by the user themself (API.md §4.3), with their own
// session — another user, or a token scoped to an L1 server, is refused; a deleted or disabled account has none.
import { err, ok, type Result } from '../../../../domain/result.js';
import { isScoped, type TokenClaims } from '../../../../domain/token.js';
import { isActive, normaliseUsername, type UserProfile } from '../../../../domain/user.js';
import type { UserRepository } from '../../../ports/user-repository.js';

export type OwnFollowersError =
  | { readonly type: 'not_found' }
  /** Another user's followers, or a token scoped to an L1 server. */
  | { readonly type: 'forbidden'; readonly reason: 'scoped_token' | 'not_yours' };

/** What deciding about a follower can be refused for, beyond whose followers they are. */
export type FollowerActionError =
  OwnFollowersError | { readonly type: 'rate_limited'; readonly retryAfterSeconds: number };

/** The user the route names, when `asker` is that user's own session. */
export async function ownFollowersUser(
  users: UserRepository,
  asker: TokenClaims,
  username: string,
): Promise<Result<UserProfile, OwnFollowersError>> {
  const name = normaliseUsername(username);
  const user = name.ok ? await users.findProfile(name.value) : null;
  if (!user || !isActive(user)) return err({ type: 'not_found' });
  if (isScoped(asker)) return err({ type: 'forbidden', reason: 'scoped_token' });
  if (asker.username !== user.username) return err({ type: 'forbidden', reason: 'not_yours' });
  return ok(user);
}
