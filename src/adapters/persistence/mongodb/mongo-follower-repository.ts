import type { MongoClient } from 'mongodb';
import type {
  FollowerFilter,
  FollowerRepository,
  FollowMatch,
} from '../../../application/ports/follower-repository.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { Follower } from '../../../domain/follower.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument } from './mongo-job-document.js';
import type { FollowerDocument, MongoCollections } from './mongo-schema.js';
import { seek, type Seek } from './mongo-seeks.js';
import { addToCounter, transaction } from './mongo-transactions.js';

const positioned = (doc: FollowerDocument): Positioned<Follower> => ({
  position: doc.seq,
  value: {
    username: doc.username as Username,
    actor: doc.actor,
    inbox: doc.inbox,
    sharedInbox: doc.sharedInbox,
    followId: doc.followId,
    followedAt: doc.followedAt,
  },
});

/** Follows, unique by (username, actor); `seq` from the `follower_seq` counter orders a user's followers. */
export class MongoFollowerRepository implements FollowerRepository {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async add(follower: Follower, accept: NewJob, now: Date): Promise<'added' | 'updated'> {
    const { followers, counters, jobs } = this.collections;
    const acceptDocument = jobDocument(accept, now);
    return storeCall(() =>
      transaction(this.client, async (session) => {
        const key = { username: follower.username, actor: follower.actor };
        const addresses = {
          inbox: follower.inbox,
          sharedInbox: follower.sharedInbox,
          followId: follower.followId,
        };
        const updated = await followers.updateOne(key, { $set: addresses }, { session });
        if (updated.matchedCount === 0) {
          const seq = await addToCounter(counters, 'follower_seq', 1, session);
          await followers.insertOne(
            { ...key, ...addresses, seq, followedAt: follower.followedAt },
            { session },
          );
        }
        await jobs.insertOne(acceptDocument, { session });
        return updated.matchedCount === 0 ? 'added' : 'updated';
      }),
    );
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    const filter =
      'username' in match ? { actor, username: match.username } : { actor, followId: match.followId };
    return (await storeCall(() => this.collections.followers.deleteMany(filter))).deletedCount;
  }

  async removeActor(actor: string): Promise<number> {
    return (await storeCall(() => this.collections.followers.deleteMany({ actor }))).deletedCount;
  }

  async listOlder(
    filter: FollowerFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<Follower>[]> {
    return this.seek(filter, { direction: 'older', position: before, limit });
  }

  async listNewer(filter: FollowerFilter, after: number, limit: number): Promise<Positioned<Follower>[]> {
    return this.seek(filter, { direction: 'newer', position: after, limit });
  }

  async count(filter: FollowerFilter): Promise<number> {
    // Counted in the unique {username, actor} index.
    return storeCall(() => this.collections.followers.countDocuments({ username: filter.username }));
  }

  private async seek(filter: FollowerFilter, how: Seek): Promise<Positioned<Follower>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.followers, { username: filter.username }, 'seq', how),
    );
    return docs.map(positioned);
  }
}
