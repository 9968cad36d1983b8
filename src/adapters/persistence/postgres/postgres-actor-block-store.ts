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
import { ACTOR_BLOCK_ROWS } from './codecs/actor-block-rows.js';
import { insertSql, type RowOf } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { insertJobs } from './postgres-job-insert.js';
import { NO_POSITION_BOUND, seekOrder } from './postgres-seeks.js';
import { named, type Queryable } from './postgres-sql.js';

type BlockRow = RowOf<typeof ACTOR_BLOCK_ROWS.columns> & { seq: number };

const COLUMNS = `seq, ${ACTOR_BLOCK_ROWS.list}`;

const positioned = (row: BlockRow): Positioned<ActorBlock> => ({
  position: row.seq,
  value: ACTOR_BLOCK_ROWS.fromRow(row),
});

/** A new block, or nothing when the user blocks the actor already (a race with another block of it too). */
const INSERT = named<RowOf<typeof ACTOR_BLOCK_ROWS.columns>>(
  insertSql(ACTOR_BLOCK_ROWS, 'ON CONFLICT (username, actor) DO NOTHING RETURNING seq'),
);

const BY_ACTOR = `SELECT ${COLUMNS} FROM actor_blocks WHERE username = $1 AND actor = $2`;

export class PostgresActorBlockStore implements ActorBlockStore {
  constructor(private readonly db: PostgresDatabase) {}

  async block(block: ActorBlock, jobs: BlockJobs, now: Date): Promise<BlockOutcome> {
    return this.db.transaction<BlockOutcome>(async (tx, refuse) => {
      const inserted = await INSERT.run(tx, ACTOR_BLOCK_ROWS.toRow(block));
      if (inserted.length === 0) {
        // READ COMMITTED: this statement sees the block that won, committed before the insert gave way to it.
        // (Null only if it was unblocked in between: still no block of ours was written.)
        refuse({ outcome: 'exists', block: (await blockOf(tx, block.username, block.actor)) ?? block });
      }
      const of = [block.username, block.actor];
      const unfollowed = await tx.query('DELETE FROM followers WHERE username = $1 AND actor = $2', of);
      const dropped = await tx.query('DELETE FROM follow_requests WHERE username = $1 AND actor = $2', of);
      const ended = unfollowed.count + dropped.count;
      // The Reject first: their server ends the follow before it reads the Block (one lane, queue order).
      await insertJobs(tx, ended > 0 && jobs.reject !== null ? [jobs.reject, jobs.block] : [jobs.block], now);
      return { outcome: 'created', block };
    });
  }

  async followOf(username: Username, actor: string): Promise<FollowEnded | null> {
    // The follower, else its waiting request (deciding a request removes it, so both are never there).
    const [row] = await this.db.query<{ actor: string; inbox: string; follow_id: string | null }>(
      `SELECT actor, inbox, follow_id FROM followers WHERE username = $1 AND actor = $2
       UNION ALL SELECT actor, inbox, follow_id FROM follow_requests WHERE username = $1 AND actor = $2
       LIMIT 1`,
      [username, actor],
    );
    return row === undefined ? null : { actor: row.actor, inbox: row.inbox, followId: row.follow_id };
  }

  async find(username: Username, actor: string): Promise<ActorBlock | null> {
    return blockOf(this.db, username, actor);
  }

  async findById(username: Username, id: string): Promise<ActorBlock | null> {
    const [row] = await this.db.query<BlockRow>(
      `SELECT ${COLUMNS} FROM actor_blocks WHERE username = $1 AND id = $2`,
      [username, id],
    );
    return row === undefined ? null : ACTOR_BLOCK_ROWS.fromRow(row);
  }

  async unblock(username: Username, id: string, undo: NewJob, now: Date): Promise<boolean> {
    return this.db.transaction<boolean>(async (tx) => {
      const removed = await tx.query('DELETE FROM actor_blocks WHERE username = $1 AND id = $2', [
        username,
        id,
      ]);
      if (removed.count === 0) return false;
      await insertJobs(tx, [undo], now);
      return true;
    });
  }

  async listOlder(
    filter: ActorBlockFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<ActorBlock>[]> {
    return this.seek(filter, 'older', before ?? NO_POSITION_BOUND, limit);
  }

  async listNewer(filter: ActorBlockFilter, after: number, limit: number): Promise<Positioned<ActorBlock>[]> {
    return this.seek(filter, 'newer', after, limit);
  }

  async count(filter: ActorBlockFilter): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM actor_blocks WHERE username = $1',
      [filter.username],
    );
    return row?.n ?? 0;
  }

  private async seek(
    filter: ActorBlockFilter,
    direction: 'older' | 'newer',
    bound: number,
    limit: number,
  ): Promise<Positioned<ActorBlock>[]> {
    if (limit <= 0) return [];
    const [comparison, order] = seekOrder(direction);
    const rows = await this.db.query<BlockRow>(
      `SELECT ${COLUMNS} FROM actor_blocks WHERE username = $1 AND seq ${comparison} $2 ORDER BY seq ${order} LIMIT $3`,
      [filter.username, bound, limit],
    );
    return rows.map(positioned);
  }
}

async function blockOf(db: Queryable, username: Username, actor: string): Promise<ActorBlock | null> {
  const [row] = await db.query<BlockRow>(BY_ACTOR, [username, actor]);
  return row === undefined ? null : ACTOR_BLOCK_ROWS.fromRow(row);
}
