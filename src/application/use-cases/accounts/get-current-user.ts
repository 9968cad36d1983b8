// Rule: a signed-in caller sees their account and the token they used; a valid token whose account is gone
// (deleted) or disabled is no valid token.
import { err, ok, type Result } from '../../../domain/result.js';
import { isActive, type UserProfile } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';

export class GetCurrentUser {
  constructor(private readonly users: UserRepository) {}

  async execute(
    session: AuthenticatedToken,
  ): Promise<Result<UserProfile, { readonly type: 'token_invalid' }>> {
    const user = await this.users.findProfile(session.claims.username);
    return user && isActive(user) ? ok(user) : err({ type: 'token_invalid' });
  }
}
