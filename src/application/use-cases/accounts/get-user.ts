// Rule: any registered user can be looked up by name (for profiles, actors and webfinger) — its public profile only:
// public pages never hold a password hash or a private key. A deleted account is found (it answers 410).
import { normaliseUsername, type UserProfile } from '../../../domain/user.js';
import type { UserRepository } from '../../ports/user-repository.js';

export class GetUser {
  constructor(private readonly users: UserRepository) {}

  /** Null when no user has this name (after lower-casing). */
  async execute(username: string): Promise<UserProfile | null> {
    const name = normaliseUsername(username);
    return name.ok ? this.users.findProfile(name.value) : null;
  }
}
