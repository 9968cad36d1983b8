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
import { copyOf, type StoredActorBlock } from './memory-actor-blocks.js';
import { MemoryDatabase } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

export class InMemoryActorBlockStore implements ActorBlockStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async block(block: ActorBlock, jobs: BlockJobs, now: Date): Promise<BlockOutcome> {
    this.db.assertOpen();
    // Checked before the first change, so a payload JSON cannot hold leaves nothing half-written.
    JSON.stringify([jobs.reject?.payload, jobs.block.payload]);
    const stored = await this.find(block.username, block.actor);
    if (stored !== null) return { outcome: 'exists', block: stored };
    this.db.actorBlocks.add(block);
    const unfollowed = this.db.removeFollowers(
      (username, follower) => username === block.username && follower.actor === block.actor,
    );
    const waiting = this.db.followRequests.length;
    this.db.followRequests = this.db.followRequests.filter((s) => !isRequestOf(s.request, block));
    const ended = unfollowed + waiting - this.db.followRequests.length;
    // The Reject first: their server ends the follow before it reads the Block (one lane, queue order).
    if (ended > 0 && jobs.reject !== null) this.db.insertJob(jobs.reject, now);
    this.db.insertJob(jobs.block, now);
    return { outcome: 'created', block: copyOf(block) };
  }

  async followOf(username: Username, actor: string): Promise<FollowEnded | null> {
    this.db.assertOpen();
    const follower = (this.db.followers.get(username) ?? []).find((f) => f.actor === actor);
    // A request and a follow of one actor do not coexist (deciding removes it); the follow would win.
    const ended =
      follower ?? this.db.followRequests.find((s) => isRequestOf(s.request, { username, actor }))?.request;
    return ended ? { actor, inbox: ended.inbox, followId: ended.followId } : null;
  }

  async find(username: Username, actor: string): Promise<ActorBlock | null> {
    return this.first((b) => b.username === username && b.actor === actor);
  }

  async findById(username: Username, id: string): Promise<ActorBlock | null> {
    return this.first((b) => b.username === username && b.id === id);
  }

  async unblock(username: Username, id: string, undo: NewJob, now: Date): Promise<boolean> {
    this.db.assertOpen();
    JSON.stringify(undo.payload);
    const rows = this.db.actorBlocks.rows;
    const at = rows.findIndex((row) => row.block.username === username && row.block.id === id);
    if (at < 0) return false;
    rows.splice(at, 1);
    this.db.insertJob(undo, now);
    return true;
  }

  async listOlder(
    filter: ActorBlockFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<ActorBlock>[]> {
    this.db.assertOpen();
    return seekOlder(this.db.actorBlocks.rows, before, limit, ofUser(filter), valueOf);
  }

  async listNewer(filter: ActorBlockFilter, after: number, limit: number): Promise<Positioned<ActorBlock>[]> {
    this.db.assertOpen();
    return seekNewer(this.db.actorBlocks.rows, after, limit, ofUser(filter), valueOf);
  }

  async count(filter: ActorBlockFilter): Promise<number> {
    this.db.assertOpen();
    return this.db.actorBlocks.rows.filter(ofUser(filter)).length;
  }

  private async first(matches: (block: ActorBlock) => boolean): Promise<ActorBlock | null> {
    this.db.assertOpen();
    const row = this.db.actorBlocks.rows.find((r) => matches(r.block));
    return row ? copyOf(row.block) : null;
  }
}

/** Whether a waiting request is `actor`'s follow request to `username`. */
const isRequestOf = (
  request: { readonly username: Username; readonly actor: string },
  of: { readonly username: Username; readonly actor: string },
): boolean => request.username === of.username && request.actor === of.actor;

const ofUser = (filter: ActorBlockFilter) => (row: StoredActorBlock) =>
  row.block.username === filter.username;
const valueOf = (row: StoredActorBlock): ActorBlock => copyOf(row.block);
