// Rule: a signed-in caller sees their account and the token they used; a valid token whose user no longer exists
// is no valid token.
import { err, ok, type Result } from '../../../domain/result.js';
import type { User } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { AuthenticatedToken } from '../../services/authenticate-token.js';

export class GetCurrentUser {
  constructor(private readonly users: UserRepository) {}

  async execute(session: AuthenticatedToken): Promise<Result<User, { readonly type: 'token_invalid' }>> {
    const user = await this.users.findByUsername(session.claims.username);
    return user ? ok(user) : err({ type: 'token_invalid' });
  }
}
