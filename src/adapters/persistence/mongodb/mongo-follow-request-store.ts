import type { ClientSession, Filter, MongoClient } from 'mongodb';
import type {
  DecisionJob,
  FollowRequestFilter,
  FollowRequestOutcome,
  FollowRequestStore,
} from '../../../application/ports/follow-request-store.js';
import type { FollowMatch } from '../../../application/ports/follower-repository.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { followerOf, type FollowRequest } from '../../../domain/follow-request.js';
import type { Username } from '../../../domain/user.js';
import { FOLLOW_REQUEST_DOCUMENTS, type FollowRequestDocument } from './codecs/federation-documents.js';
import { storeCall } from './mongo-errors.js';
import { upsertFollower } from './mongo-follower-repository.js';
import { jobDocument, replacePending } from './mongo-job-document.js';
import type { MongoCollections } from './mongo-schema.js';
import { seek, type Seek } from './mongo-seeks.js';
import { addToCounter, transaction } from './mongo-transactions.js';

const positioned = (doc: FollowRequestDocument): Positioned<FollowRequest> => ({
  position: doc.seq,
  value: FOLLOW_REQUEST_DOCUMENTS.fromDocument(doc),
});

/**
 * Follow requests, unique by (username, actor); `seq` from the `follow_request_seq` counter orders a user's. Every
 * decision is one transaction: the request deleted, the follower stored (and counted), the answer queued.
 */
export class MongoFollowRequestStore implements FollowRequestStore {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async add(request: FollowRequest): Promise<FollowRequestOutcome> {
    const { followRequests, counters } = this.collections;
    const doc = FOLLOW_REQUEST_DOCUMENTS.toDocument(request);
    return storeCall(() =>
      transaction<FollowRequestOutcome>(this.client, async (session) => {
        // A repeated Follow keeps the request's id, place and time and takes the new Follow id and inboxes.
        const renewed = await followRequests.updateOne(
          { username: doc.username, actor: doc.actor },
          { $set: { inbox: doc.inbox, sharedInbox: doc.sharedInbox, followId: doc.followId } },
          { session },
        );
        if (renewed.matchedCount === 1) return 'updated';
        const seq = await addToCounter(counters, 'follow_request_seq', 1, session);
        await followRequests.insertOne({ ...doc, seq }, { session });
        return 'added';
      }),
    );
  }

  async find(username: Username, id: string): Promise<FollowRequest | null> {
    const doc = await storeCall(() => this.collections.followRequests.findOne({ username, id }));
    return doc ? FOLLOW_REQUEST_DOCUMENTS.fromDocument(doc) : null;
  }

  async accept(username: Username, id: string, job: DecisionJob, now: Date): Promise<FollowRequest | null> {
    return storeCall(() =>
      transaction<FollowRequest | null>(this.client, async (session) => {
        const request = await this.take({ username, id }, session);
        if (request) await this.acceptTaken(request, job, now, session);
        return request;
      }),
    );
  }

  async reject(username: Username, id: string, job: DecisionJob, now: Date): Promise<FollowRequest | null> {
    return storeCall(() =>
      transaction<FollowRequest | null>(this.client, async (session) => {
        const request = await this.take({ username, id }, session);
        if (request) await this.queue(job(request), now, session);
        return request;
      }),
    );
  }

  async acceptAll(username: Username, job: DecisionJob, now: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const { followRequests } = this.collections;
    return storeCall(() =>
      transaction<number>(this.client, async (session) => {
        const oldest = await followRequests
          .find({ username }, { session, sort: { seq: 1 }, limit })
          .toArray();
        for (const doc of oldest) {
          await followRequests.deleteOne({ _id: doc._id }, { session });
          await this.acceptTaken(FOLLOW_REQUEST_DOCUMENTS.fromDocument(doc), job, now, session);
        }
        return oldest.length;
      }),
    );
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    const filter: Filter<FollowRequestDocument> =
      'username' in match ? { actor, username: match.username } : { actor, followId: match.followId };
    return (await storeCall(() => this.collections.followRequests.deleteMany(filter))).deletedCount;
  }

  async removeActor(actor: string): Promise<number> {
    return (await storeCall(() => this.collections.followRequests.deleteMany({ actor }))).deletedCount;
  }

  async listOlder(
    filter: FollowRequestFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    return this.seek(filter, { direction: 'older', position: before, limit });
  }

  async listNewer(
    filter: FollowRequestFilter,
    after: number,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    return this.seek(filter, { direction: 'newer', position: after, limit });
  }

  async count(filter: FollowRequestFilter): Promise<number> {
    return storeCall(() => this.collections.followRequests.countDocuments({ username: filter.username }));
  }

  private async take(filter: { username: string; id: string }, session: ClientSession) {
    const doc = await this.collections.followRequests.findOneAndDelete(filter, {
      session,
      includeResultMetadata: false,
    });
    return doc ? FOLLOW_REQUEST_DOCUMENTS.fromDocument(doc) : null;
  }

  private async acceptTaken(request: FollowRequest, job: DecisionJob, now: Date, session: ClientSession) {
    await upsertFollower(this.collections, followerOf(request, now), session);
    await this.queue(job(request), now, session);
  }

  private async queue(job: ReturnType<DecisionJob>, now: Date, session: ClientSession): Promise<void> {
    const doc = jobDocument(job, now);
    if (!(await replacePending(this.collections.jobs, doc, session)))
      await this.collections.jobs.insertOne(doc, { session });
  }

  private async seek(filter: FollowRequestFilter, how: Seek): Promise<Positioned<FollowRequest>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.followRequests, { username: filter.username }, 'seq', how),
    );
    return docs.map(positioned);
  }
}
