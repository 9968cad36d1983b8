import type { FollowerRepository } from '../../../application/ports/follower-repository.js';
import type { Username } from '../../../domain/user.js';
import { MemoryDatabase } from './memory-database.js';

export class InMemoryFollowerRepository implements FollowerRepository {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async count(username: Username): Promise<number> {
    this.db.assertOpen();
    return this.db.followers.get(username)?.size ?? 0;
  }
}
