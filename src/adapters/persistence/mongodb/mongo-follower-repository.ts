import type { FollowerRepository } from '../../../application/ports/follower-repository.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import type { MongoCollections } from './mongo-schema.js';

export class MongoFollowerRepository implements FollowerRepository {
  constructor(private readonly collections: MongoCollections) {}

  async count(username: Username): Promise<number> {
    // Counted in the unique {username, actor} index.
    return storeCall(() => this.collections.followers.countDocuments({ username }));
  }
}
