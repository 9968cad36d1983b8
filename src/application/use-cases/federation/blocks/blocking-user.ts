// Rule: a person's blocks are theirs alone (API.md §4.3): read and changed by the user themself, with their own
// session — another user, or a token scoped to an L1 server, is refused; a deleted or disabled account has none.
import { err, ok, type Result } from '../../../../domain/result.js';
import { isScoped, type TokenClaims } from '../../../../domain/token.js';
import { isActive, normaliseUsername, type Username } from '../../../../domain/user.js';
import type { UserRepository } from '../../../ports/user-repository.js';

export type BlockingUserError =
  | { readonly type: 'not_found' }
  /** Another user's blocks, or a token scoped to an L1 server. */
  | { readonly type: 'forbidden'; readonly reason: 'scoped_token' | 'not_yours' };

/** The user named by the route, when `asker` is that user's own session. */
export async function blockingUser(
  users: UserRepository,
  asker: TokenClaims,
  username: string,
): Promise<Result<Username, BlockingUserError>> {
  const name = normaliseUsername(username);
  const user = name.ok ? await users.findProfile(name.value) : null;
  if (!user || !isActive(user)) return err({ type: 'not_found' });
  if (isScoped(asker)) return err({ type: 'forbidden', reason: 'scoped_token' });
  if (asker.username !== user.username) return err({ type: 'forbidden', reason: 'not_yours' });
  return ok(user.username);
}
