import type { Database, Statement, Transaction } from 'better-sqlite3';
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
import { prepareJobInsert } from './job-insert.js';
import { insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { NO_POSITION_BOUND } from './sqlite-seeks.js';

type BlockRow = RowOf<typeof ACTOR_BLOCK_ROWS.columns> & { seq: number };

const COLUMNS = `seq, ${ACTOR_BLOCK_ROWS.list}`;

const positioned = (row: BlockRow): Positioned<ActorBlock> => ({
  position: row.seq,
  value: ACTOR_BLOCK_ROWS.fromRow(row),
});

export class SqliteActorBlockStore implements ActorBlockStore {
  private readonly blockActor: Transaction<(block: ActorBlock, jobs: BlockJobs, now: Date) => BlockOutcome>;
  private readonly unblockActor: Transaction<
    (username: Username, id: string, undo: NewJob, now: Date) => boolean
  >;
  private readonly byActor: Statement<[string, string], BlockRow>;
  private readonly byId: Statement<[string, string], BlockRow>;
  private readonly follow: Statement<
    [{ username: string; actor: string }],
    { actor: string; inbox: string; follow_id: string | null }
  >;
  private readonly older: Statement<[string, number, number], BlockRow>;
  private readonly newer: Statement<[string, number, number], BlockRow>;
  private readonly countByUser: Statement<[string], { n: number }>;

  constructor(db: Database) {
    this.byActor = db.prepare(`SELECT ${COLUMNS} FROM actor_blocks WHERE username = ? AND actor = ?`);
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM actor_blocks WHERE username = ? AND id = ?`);
    // The follower, else its waiting request (deciding a request removes it, so both are never there).
    this.follow = db.prepare(
      `SELECT actor, inbox, follow_id FROM followers WHERE username = @username AND actor = @actor
       UNION ALL SELECT actor, inbox, follow_id FROM follow_requests WHERE username = @username AND actor = @actor
       LIMIT 1`,
    );
    const insert = db.prepare<[RowOf<typeof ACTOR_BLOCK_ROWS.columns>]>(insertSql(ACTOR_BLOCK_ROWS));
    const unfollow = db.prepare<[string, string]>('DELETE FROM followers WHERE username = ? AND actor = ?');
    const dropRequest = db.prepare<[string, string]>(
      'DELETE FROM follow_requests WHERE username = ? AND actor = ?',
    );
    const remove = db.prepare<[string, string]>('DELETE FROM actor_blocks WHERE username = ? AND id = ?');
    const insertJob = prepareJobInsert(db);
    this.blockActor = db.transaction((block: ActorBlock, jobs: BlockJobs, now: Date): BlockOutcome => {
      const stored = this.byActor.get(block.username, block.actor);
      if (stored !== undefined) return { outcome: 'exists', block: ACTOR_BLOCK_ROWS.fromRow(stored) };
      insert.run(ACTOR_BLOCK_ROWS.toRow(block));
      const ended =
        unfollow.run(block.username, block.actor).changes +
        dropRequest.run(block.username, block.actor).changes;
      // The Reject first: their server ends the follow before it reads the Block (one lane, queue order).
      if (ended > 0 && jobs.reject !== null) insertJob(jobs.reject, now);
      insertJob(jobs.block, now);
      return { outcome: 'created', block };
    });
    this.unblockActor = db.transaction((username: Username, id: string, undo: NewJob, now: Date) => {
      if (remove.run(username, id).changes === 0) return false;
      insertJob(undo, now);
      return true;
    });
    this.older = db.prepare(
      `SELECT ${COLUMNS} FROM actor_blocks WHERE username = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    );
    this.newer = db.prepare(
      `SELECT ${COLUMNS} FROM actor_blocks WHERE username = ? AND seq > ? ORDER BY seq ASC LIMIT ?`,
    );
    this.countByUser = db.prepare('SELECT COUNT(*) AS n FROM actor_blocks WHERE username = ?');
  }

  async block(block: ActorBlock, jobs: BlockJobs, now: Date): Promise<BlockOutcome> {
    return storeCall(() => this.blockActor.immediate(block, jobs, now));
  }

  async followOf(username: Username, actor: string): Promise<FollowEnded | null> {
    const row = storeCall(() => this.follow.get({ username, actor }));
    return row === undefined ? null : { actor: row.actor, inbox: row.inbox, followId: row.follow_id };
  }

  async find(username: Username, actor: string): Promise<ActorBlock | null> {
    const row = storeCall(() => this.byActor.get(username, actor));
    return row === undefined ? null : ACTOR_BLOCK_ROWS.fromRow(row);
  }

  async findById(username: Username, id: string): Promise<ActorBlock | null> {
    const row = storeCall(() => this.byId.get(username, id));
    return row === undefined ? null : ACTOR_BLOCK_ROWS.fromRow(row);
  }

  async unblock(username: Username, id: string, undo: NewJob, now: Date): Promise<boolean> {
    return storeCall(() => this.unblockActor.immediate(username, id, undo, now));
  }

  async listOlder(
    filter: ActorBlockFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<ActorBlock>[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    return storeCall(() => this.older.all(filter.username, before ?? NO_POSITION_BOUND, limit)).map(
      positioned,
    );
  }

  async listNewer(filter: ActorBlockFilter, after: number, limit: number): Promise<Positioned<ActorBlock>[]> {
    if (limit <= 0) return [];
    return storeCall(() => this.newer.all(filter.username, after, limit)).map(positioned);
  }

  async count(filter: ActorBlockFilter): Promise<number> {
    return storeCall(() => this.countByUser.get(filter.username))?.n ?? 0;
  }
}
