// Rule: any registered user can be looked up by name (for profiles, actors and webfinger).
import { normaliseUsername, type User } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';

export class GetUser {
  constructor(private readonly users: UserRepository) {}

  /** Null when no user has this name (after lower-casing). */
  async execute(username: string): Promise<User | null> {
    const name = normaliseUsername(username);
    return name.ok ? this.users.findByUsername(name.value) : null;
  }
}
