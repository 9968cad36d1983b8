import type { ClientSession, Filter, MongoClient } from 'mongodb';
import {
  NO_LANE_CAP,
  type FollowerFilter,
  type FollowerRepository,
  type FollowMatch,
  type FollowOutcome,
} from '../../../application/ports/follower-repository.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { candidateRuleKeys, hostKeyOfUrl, ruleKeyRange } from '../../../domain/domain-rules.js';
import type { Follower } from '../../../domain/follower.js';
import type { Username } from '../../../domain/user.js';
import { storeCall } from './mongo-errors.js';
import { jobDocument, replacePending } from './mongo-job-document.js';
import { FOLLOWER_DOCUMENTS, type FollowerDocument } from './codecs/federation-documents.js';
import { without } from './mongo-codec.js';
import type { MongoCollections } from './mongo-schema.js';
import { seek, type Seek } from './mongo-seeks.js';
import { addToCounter, transaction } from './mongo-transactions.js';
import { addToUserCount, readUserCount } from './mongo-user-counts.js';

/** A user's followers, only those whose host an allow key covers when the filter has a scope. */
function scopedFilter(filter: FollowerFilter): Filter<FollowerDocument> {
  if (!filter.scope) return { username: filter.username };
  const ranges = filter.scope.allowKeys.map(ruleKeyRange);
  return {
    username: filter.username,
    $or:
      ranges.length === 0
        ? [{ _id: { $exists: false } }]
        : ranges.map((r) => ({ hostKey: { $gte: r.from, $lt: r.below } })),
  };
}

const positioned = (doc: FollowerDocument): Positioned<Follower> => ({
  position: doc.seq,
  value: FOLLOWER_DOCUMENTS.fromDocument(doc),
});

/**
 * Stores a follower inside `session`'s transaction: a repeated Follow keeps its place (seq) and follow time and takes
 * the new addresses; a new one takes the next position and counts towards its user's total. Shared with the follow
 * requests, whose acceptance stores one.
 */
export async function upsertFollower(
  collections: MongoCollections,
  follower: Follower,
  session: ClientSession,
): Promise<'added' | 'updated'> {
  const { followers, counters, userCounts } = collections;
  const doc = FOLLOWER_DOCUMENTS.toDocument(follower);
  const key = { username: doc.username, actor: doc.actor };
  const addresses = without(doc, ['username', 'actor', 'followedAt']);
  const updated = await followers.updateOne(key, { $set: addresses }, { session });
  if (updated.matchedCount === 1) return 'updated';
  const seq = await addToCounter(counters, 'follower_seq', 1, session);
  await followers.insertOne({ ...doc, seq }, { session });
  await addToUserCount(userCounts, follower.username, 'followers', 1, session);
  return 'added';
}

/**
 * Follows, unique by (username, actor); `seq` from the `follower_seq` counter orders a user's followers. Every write
 * is a transaction that also moves the user's `followers` total, so counting is one document read.
 */
export class MongoFollowerRepository implements FollowerRepository {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async add(
    follower: Follower,
    accept: NewJob,
    now: Date,
    maxPendingInLane = NO_LANE_CAP,
  ): Promise<FollowOutcome> {
    const { jobs } = this.collections;
    // Made (and its payload serialised) before the transaction: a payload JSON cannot hold fails with nothing
    // started. The same document on every run of the transaction is harmless, as an aborted run wrote nothing.
    const acceptDocument = jobDocument(accept, now);
    return storeCall(() =>
      transaction<FollowOutcome>(this.client, async (session, refuse) => {
        // The Accept first: a lane that is full ends the transaction before anything else is written. Two Follows of
        // one (user, actor) both write the follower below, so they conflict and one runs again, seeing the other's
        // Accept to replace; two of different pairs may both take the last place in a lane (the count is no write),
        // which overshoots the cap by the number of Follows racing, never more.
        const key = hostKeyOfUrl(follower.actor);
        const blocked =
          key !== null &&
          (await this.collections.domainRules.findOne(
            { kind: 'block', hostKey: { $in: candidateRuleKeys(key) } },
            { session, projection: { _id: 1 } },
          )) !== null;
        if (blocked) refuse('shut_out');
        if (!(await replacePending(jobs, acceptDocument, session))) {
          const waiting = await jobs.countDocuments(
            { lane: acceptDocument.lane, kind: acceptDocument.kind, state: 'pending' },
            { session, limit: maxPendingInLane },
          );
          if (waiting >= maxPendingInLane) refuse('lane_full');
          await jobs.insertOne(acceptDocument, { session });
        }
        return upsertFollower(this.collections, follower, session);
      }),
    );
  }

  async find(username: Username, actor: string): Promise<Follower | null> {
    const doc = await storeCall(() => this.collections.followers.findOne({ username, actor }));
    return doc ? FOLLOWER_DOCUMENTS.fromDocument(doc) : null;
  }

  async removeWithNotice(
    username: Username,
    actor: string,
    notice: (follower: Follower) => NewJob,
    now: Date,
  ): Promise<Follower | null> {
    const { followers, jobs, userCounts } = this.collections;
    return storeCall(() =>
      transaction<Follower | null>(this.client, async (session) => {
        const doc = await followers.findOneAndDelete(
          { username, actor },
          { session, includeResultMetadata: false },
        );
        if (!doc) return null;
        await addToUserCount(userCounts, username, 'followers', -1, session);
        const follower = FOLLOWER_DOCUMENTS.fromDocument(doc);
        const job = jobDocument(notice(follower), now);
        if (!(await replacePending(jobs, job, session))) await jobs.insertOne(job, { session });
        return follower;
      }),
    );
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    return this.removeMatching(
      'username' in match ? { actor, username: match.username } : { actor, followId: match.followId },
    );
  }

  async removeActor(actor: string): Promise<number> {
    return this.removeMatching({ actor });
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
    // In allowlist mode the user's total counts followers out of scope too: those in scope are counted instead.
    if (filter.scope) return storeCall(() => this.collections.followers.countDocuments(scopedFilter(filter)));
    return storeCall(() => readUserCount(this.collections.userCounts, filter.username, 'followers'));
  }

  /**
   * Deletes the follows matching `filter` (one actor's: at most one per local user, through `followers_by_actor`)
   * and takes each from its user's total, in one transaction. Returns how many ended.
   */
  private async removeMatching(filter: Filter<FollowerDocument>): Promise<number> {
    const { followers, userCounts } = this.collections;
    return storeCall(() =>
      transaction<number>(this.client, async (session) => {
        const ending = await followers
          .find(filter, { session, projection: { _id: 1, username: 1 } })
          .toArray();
        if (ending.length === 0) return 0;
        await followers.deleteMany({ _id: { $in: ending.map((doc) => doc._id) } }, { session });
        const byUser = new Map<string, number>();
        for (const { username } of ending) byUser.set(username, (byUser.get(username) ?? 0) + 1);
        for (const [username, n] of byUser)
          await addToUserCount(userCounts, username, 'followers', -n, session);
        return ending.length;
      }),
    );
  }

  private async seek(filter: FollowerFilter, how: Seek): Promise<Positioned<Follower>[]> {
    const docs = await storeCall(() => seek(this.collections.followers, scopedFilter(filter), 'seq', how));
    return docs.map(positioned);
  }
}
