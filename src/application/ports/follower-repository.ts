import type { Username } from '../../domain/user.js';

/** Remote actors following a local user (filled once federation accepts Follow activities). */
export interface FollowerRepository {
  /** How many actors follow the user; 0 for a user nobody follows. */
  count(username: Username): Promise<number>;
}
