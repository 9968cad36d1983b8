import type { Database, Statement, Transaction } from 'better-sqlite3';
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
import { FOLLOW_REQUEST_ROWS } from './codecs/federation-rows.js';
import { prepareJobInsert } from './job-insert.js';
import { prepareFollowerUpsert } from './sqlite-follower-repository.js';
import { insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { NO_POSITION_BOUND } from './sqlite-seeks.js';

type RequestRow = RowOf<typeof FOLLOW_REQUEST_ROWS.columns> & { seq: number };

const COLUMNS = `seq, ${FOLLOW_REQUEST_ROWS.list}`;

const positioned = (row: RequestRow): Positioned<FollowRequest> => ({
  position: row.seq,
  value: FOLLOW_REQUEST_ROWS.fromRow(row),
});

type Decide = (username: string, id: string, job: DecisionJob, now: Date) => FollowRequest | null;

/** Follow requests in `follow_requests` (migration 14); every decision is one IMMEDIATE transaction. */
export class SqliteFollowRequestStore implements FollowRequestStore {
  private readonly upsert: Transaction<(request: FollowRequest) => FollowRequestOutcome>;
  private readonly findOne: Statement<[string, string], RequestRow>;
  private readonly acceptOne: Transaction<Decide>;
  private readonly rejectOne: Transaction<Decide>;
  private readonly acceptOldest: Transaction<
    (username: string, job: DecisionJob, now: Date, limit: number) => number
  >;
  private readonly older: Statement<[string, number, number], RequestRow>;
  private readonly newer: Statement<[string, number, number], RequestRow>;
  private readonly countByUser: Statement<[string], { n: number }>;
  private readonly removeByUser: Statement<[string, string]>;
  private readonly removeByFollowId: Statement<[string, string]>;
  private readonly removeAll: Statement<[string]>;

  constructor(db: Database) {
    const exists = db.prepare<[string, string]>(
      'SELECT 1 FROM follow_requests WHERE username = ? AND actor = ?',
    );
    // A repeated Follow keeps the request's id, place and time, and takes the new Follow id and inboxes.
    const insert = db.prepare<[RowOf<typeof FOLLOW_REQUEST_ROWS.columns>]>(
      insertSql(
        FOLLOW_REQUEST_ROWS,
        `ON CONFLICT (username, actor) DO UPDATE SET
          inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, follow_id = excluded.follow_id`,
      ),
    );
    this.upsert = db.transaction((request: FollowRequest) => {
      const existed = exists.get(request.username, request.actor) !== undefined;
      insert.run(FOLLOW_REQUEST_ROWS.toRow(request));
      return existed ? 'updated' : 'added';
    });
    this.findOne = db.prepare(`SELECT ${COLUMNS} FROM follow_requests WHERE username = ? AND id = ?`);
    const removeOne = db.prepare<[number]>('DELETE FROM follow_requests WHERE seq = ?');
    const insertJob = prepareJobInsert(db);
    const storeFollower = prepareFollowerUpsert(db);
    const accept = (row: RequestRow, job: DecisionJob, now: Date): FollowRequest => {
      const request = FOLLOW_REQUEST_ROWS.fromRow(row);
      removeOne.run(row.seq);
      storeFollower(followerOf(request, now));
      insertJob(job(request), now);
      return request;
    };
    this.acceptOne = db.transaction((username, id, job, now) => {
      const row = this.findOne.get(username, id);
      return row ? accept(row, job, now) : null;
    });
    this.rejectOne = db.transaction((username, id, job, now) => {
      const row = this.findOne.get(username, id);
      if (!row) return null;
      const request = FOLLOW_REQUEST_ROWS.fromRow(row);
      removeOne.run(row.seq);
      insertJob(job(request), now);
      return request;
    });
    const oldest = db.prepare<[string, number], RequestRow>(
      `SELECT ${COLUMNS} FROM follow_requests WHERE username = ? ORDER BY seq ASC LIMIT ?`,
    );
    this.acceptOldest = db.transaction((username: string, job: DecisionJob, now: Date, limit: number) => {
      const rows = oldest.all(username, limit);
      for (const row of rows) accept(row, job, now);
      return rows.length;
    });
    this.older = db.prepare(
      `SELECT ${COLUMNS} FROM follow_requests WHERE username = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    );
    this.newer = db.prepare(
      `SELECT ${COLUMNS} FROM follow_requests WHERE username = ? AND seq > ? ORDER BY seq ASC LIMIT ?`,
    );
    this.countByUser = db.prepare('SELECT COUNT(*) AS n FROM follow_requests WHERE username = ?');
    this.removeByUser = db.prepare('DELETE FROM follow_requests WHERE actor = ? AND username = ?');
    this.removeByFollowId = db.prepare('DELETE FROM follow_requests WHERE actor = ? AND follow_id = ?');
    this.removeAll = db.prepare('DELETE FROM follow_requests WHERE actor = ?');
  }

  async add(request: FollowRequest): Promise<FollowRequestOutcome> {
    return storeCall(() => this.upsert.immediate(request));
  }

  async find(username: Username, id: string): Promise<FollowRequest | null> {
    const row = storeCall(() => this.findOne.get(username, id));
    return row ? FOLLOW_REQUEST_ROWS.fromRow(row) : null;
  }

  async accept(username: Username, id: string, job: DecisionJob, now: Date): Promise<FollowRequest | null> {
    return storeCall(() => this.acceptOne.immediate(username, id, job, now));
  }

  async reject(username: Username, id: string, job: DecisionJob, now: Date): Promise<FollowRequest | null> {
    return storeCall(() => this.rejectOne.immediate(username, id, job, now));
  }

  async acceptAll(username: Username, job: DecisionJob, now: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    return storeCall(() => this.acceptOldest.immediate(username, job, now, limit));
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    return storeCall(() =>
      'username' in match
        ? this.removeByUser.run(actor, match.username)
        : this.removeByFollowId.run(actor, match.followId),
    ).changes;
  }

  async removeActor(actor: string): Promise<number> {
    return storeCall(() => this.removeAll.run(actor)).changes;
  }

  async listOlder(
    filter: FollowRequestFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    return storeCall(() => this.older.all(filter.username, before ?? NO_POSITION_BOUND, limit)).map(
      positioned,
    );
  }

  async listNewer(
    filter: FollowRequestFilter,
    after: number,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    if (limit <= 0) return [];
    return storeCall(() => this.newer.all(filter.username, after, limit)).map(positioned);
  }

  async count(filter: FollowRequestFilter): Promise<number> {
    return storeCall(() => this.countByUser.get(filter.username))?.n ?? 0;
  }
}
