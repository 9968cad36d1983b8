import type { ClientSession, Collection, MongoClient } from 'mongodb';
import type {
  ActorBlockFilter,
  ActorBlockStore,
  BlockJobs,
  BlockOutcome,
  FollowEnded,
} from '../../../application/ports/actor-block-store.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import type { ActorBlock } from '../../../domain/actor-block.js';
import type { Username } from '../../../domain/user.js';
import { ACTOR_BLOCK_DOCUMENTS, type ActorBlockDocument } from './codecs/actor-block-documents.js';
import { storeCall } from './mongo-errors.js';
import type { JobDocument, StoredJobDocument } from './codecs/job-documents.js';
import { jobDocument, replacePending } from './mongo-job-document.js';
import type { MongoCollections } from './mongo-schema.js';
import { seek, type Seek } from './mongo-seeks.js';
import { addToCounter, transaction } from './mongo-transactions.js';
import { addToUserCount } from './mongo-user-counts.js';

const positioned = (doc: ActorBlockDocument): Positioned<ActorBlock> => ({
  position: doc.seq,
  value: ACTOR_BLOCK_DOCUMENTS.fromDocument(doc),
});

/**
 * Blocks keyed by their id, unique by (username, actor); `seq` from the `actor_block_seq` counter orders a user's
 * blocks. A block ends the actor's follow (moving the user's `followers` total) and drops its follow request in its
 * transaction.
 */
export class MongoActorBlockStore implements ActorBlockStore {
  constructor(
    private readonly client: MongoClient,
    private readonly collections: MongoCollections,
  ) {}

  async block(block: ActorBlock, jobs: BlockJobs, now: Date): Promise<BlockOutcome> {
    const { actorBlocks, followers, followRequests, counters, jobs: queue, userCounts } = this.collections;
    // Made (and their payloads serialised) before the transaction: a payload JSON cannot hold fails with nothing
    // started. The same documents on every run of the transaction are harmless, as an aborted run wrote nothing.
    const reject = jobs.reject === null ? null : jobDocument(jobs.reject, now);
    const blockJob = jobDocument(jobs.block, now);
    return storeCall(() =>
      transaction<BlockOutcome>(this.client, async (session, refuse) => {
        const stored = await actorBlocks.findOne(
          { username: block.username, actor: block.actor },
          { session },
        );
        if (stored !== null) refuse({ outcome: 'exists', block: ACTOR_BLOCK_DOCUMENTS.fromDocument(stored) });
        const seq = await addToCounter(counters, 'actor_block_seq', 1, session);
        // Two blocks of one (user, actor) racing: the unique index aborts one, which runs again and finds the other.
        await actorBlocks.insertOne({ ...ACTOR_BLOCK_DOCUMENTS.toDocument(block), seq }, { session });
        const of = { username: block.username, actor: block.actor };
        const unfollowed = await followers.deleteOne(of, { session });
        if (unfollowed.deletedCount > 0)
          await addToUserCount(userCounts, block.username, 'followers', -1, session);
        const dropped = await followRequests.deleteOne(of, { session });
        const ended = unfollowed.deletedCount + dropped.deletedCount;
        // The Reject first: their server ends the follow before it reads the Block (one lane, queue order).
        if (ended > 0 && reject !== null) await queued(queue, reject, session);
        await queued(queue, blockJob, session);
        return { outcome: 'created', block };
      }),
    );
  }

  async followOf(username: Username, actor: string): Promise<FollowEnded | null> {
    const { followers, followRequests } = this.collections;
    // The follower, else its waiting request (deciding a request removes it, so both are never there).
    const found =
      (await storeCall(() => followers.findOne({ username, actor }))) ??
      (await storeCall(() => followRequests.findOne({ username, actor })));
    return found === null ? null : { actor, inbox: found.inbox, followId: found.followId };
  }

  async find(username: Username, actor: string): Promise<ActorBlock | null> {
    const found = await storeCall(() => this.collections.actorBlocks.findOne({ username, actor }));
    return found === null ? null : ACTOR_BLOCK_DOCUMENTS.fromDocument(found);
  }

  async findById(username: Username, id: string): Promise<ActorBlock | null> {
    const found = await storeCall(() => this.collections.actorBlocks.findOne({ _id: id, username }));
    return found === null ? null : ACTOR_BLOCK_DOCUMENTS.fromDocument(found);
  }

  async unblock(username: Username, id: string, undo: NewJob, now: Date): Promise<boolean> {
    const undoJob = jobDocument(undo, now);
    return storeCall(() =>
      transaction<boolean>(this.client, async (session) => {
        const removed = await this.collections.actorBlocks.deleteOne({ _id: id, username }, { session });
        if (removed.deletedCount === 0) return false;
        await queued(this.collections.jobs, undoJob, session);
        return true;
      }),
    );
  }

  async listOlder(
    filter: ActorBlockFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<ActorBlock>[]> {
    return this.seek(filter, { direction: 'older', position: before, limit });
  }

  async listNewer(filter: ActorBlockFilter, after: number, limit: number): Promise<Positioned<ActorBlock>[]> {
    return this.seek(filter, { direction: 'newer', position: after, limit });
  }

  async count(filter: ActorBlockFilter): Promise<number> {
    return storeCall(() => this.collections.actorBlocks.countDocuments({ username: filter.username }));
  }

  private async seek(filter: ActorBlockFilter, how: Seek): Promise<Positioned<ActorBlock>[]> {
    const docs = await storeCall(() =>
      seek(this.collections.actorBlocks, { username: filter.username }, 'seq', how),
    );
    return docs.map(positioned);
  }
}

/** Queues `doc` inside the transaction: in place of the pending job holding its key, if it has one, else added. */
async function queued(
  jobs: Collection<StoredJobDocument>,
  doc: JobDocument,
  session: ClientSession,
): Promise<void> {
  if (!(await replacePending(jobs, doc, session))) await jobs.insertOne(doc, { session });
}
