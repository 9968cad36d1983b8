// Rule: the holder of a valid token can read their own account.
import type { User, Username } from '../../domain/user.js';
import type { UserRepository } from '../ports/user-repository.js';

export class GetCurrentUser {
  constructor(private readonly users: UserRepository) {}

  /** Null when the account behind a still-valid token no longer exists. */
  execute(username: Username): Promise<User | null> {
    return this.users.findByUsername(username);
  }
}
