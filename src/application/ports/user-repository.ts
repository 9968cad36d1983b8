import type { User, Username } from '../../domain/user.js';
import type { Positioned } from './positioned.js';

export interface UserRepository {
  /**
   * Stores a new user. Returns `'taken'` when the username exists already — decided by the store's own uniqueness
   * guarantee, so of two concurrent calls with one name exactly one returns `'created'`.
   */
  create(user: User): Promise<'created' | 'taken'>;
  /** The user with this (normalised) username, or null when there is none. */
  findByUsername(username: Username): Promise<User | null>;
  /** How many users are registered. */
  count(): Promise<number>;
  /** Up to `limit` users registered before position `before` (or the newest, with null), newest first. */
  listOlder(before: number | null, limit: number): Promise<Positioned<User>[]>;
  /** Up to `limit` users registered after position `after`, OLDEST first. */
  listNewer(after: number, limit: number): Promise<Positioned<User>[]>;
}
