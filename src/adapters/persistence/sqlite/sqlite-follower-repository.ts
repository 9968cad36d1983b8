import type { Database, Statement, Transaction } from 'better-sqlite3';
import {
  NO_LANE_CAP,
  type FollowerFilter,
  type FollowerRepository,
  type FollowMatch,
  type FollowOutcome,
} from '../../../application/ports/follower-repository.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { candidateRuleKeys, hostKeyOfUrl, type HostScope } from '../../../domain/domain-rules.js';
import type { Follower } from '../../../domain/follower.js';
import type { Username } from '../../../domain/user.js';
import { prepareJobInsert, prepareLaneFullCheck } from './job-insert.js';
import { FOLLOWER_ROWS } from './codecs/federation-rows.js';
import { assignments, insertSql, type RowOf } from './sqlite-codec.js';
import { storeCall } from './sqlite-errors.js';
import { NO_POSITION_BOUND } from './sqlite-seeks.js';
import { scopeCondition, scopeParameters } from './sqlite-host-scope.js';

type FollowerRow = RowOf<typeof FOLLOWER_ROWS.columns> & { seq: number };

const COLUMNS = `seq, ${FOLLOWER_ROWS.list}`;

const positioned = (row: FollowerRow): Positioned<Follower> => ({
  position: row.seq,
  value: FOLLOWER_ROWS.fromRow(row),
});

/**
 * Prepares the one way a follower is stored: a repeated Follow keeps the follower's place (seq) and follow time and
 * takes the new addresses. Shared with the follow requests, whose acceptance stores one.
 */
export function prepareFollowerUpsert(db: Database): (follower: Follower) => 'added' | 'updated' {
  const exists = db.prepare<[string, string]>('SELECT 1 FROM followers WHERE username = ? AND actor = ?');
  const upsert = db.prepare<[RowOf<typeof FOLLOWER_ROWS.columns>]>(
    insertSql(
      FOLLOWER_ROWS,
      `ON CONFLICT (username, actor) DO UPDATE SET
        ${assignments(FOLLOWER_ROWS, ['username', 'actor', 'followed_at'], 'excluded.')}`,
    ),
  );
  return (follower) => {
    const existed = exists.get(follower.username, follower.actor) !== undefined;
    upsert.run(FOLLOWER_ROWS.toRow(follower));
    return existed ? 'updated' : 'added';
  };
}

export class SqliteFollowerRepository implements FollowerRepository {
  private readonly addFollower: Transaction<
    (follower: Follower, accept: NewJob, now: Date, maxPendingInLane: number) => FollowOutcome
  >;
  private readonly older: Statement<[string, number, number], FollowerRow>;
  private readonly newer: Statement<[string, number, number], FollowerRow>;
  private readonly countByUser: Statement<[string], { n: number }>;
  private readonly removeByUser: Statement<[string, string]>;
  private readonly removeByFollowId: Statement<[string, string]>;
  private readonly removeAll: Statement<[string]>;
  private readonly findOne: Statement<[string, string], FollowerRow>;
  private readonly removeNoticed: Transaction<
    (username: string, actor: string, notice: (f: Follower) => NewJob, now: Date) => Follower | null
  >;

  private readonly scoped = new Map<string, Statement>();

  constructor(private readonly db: Database) {
    const upsert = prepareFollowerUpsert(db);
    const insertJob = prepareJobInsert(db);
    const blocked = db.prepare<[string]>(
      "SELECT 1 FROM domain_rules WHERE kind = 'block' AND host_key IN (SELECT value FROM json_each(?))",
    );
    const shutOut = (actor: string): boolean => {
      const key = hostKeyOfUrl(actor);
      return key !== null && blocked.get(JSON.stringify(candidateRuleKeys(key))) !== undefined;
    };
    const laneFull = prepareLaneFullCheck(db);
    this.addFollower = db.transaction(
      (follower: Follower, accept: NewJob, now: Date, maxPendingInLane: number) => {
        // Checked under the write lock, with the writes: two Follows cannot both take the last place in the lane.
        if (shutOut(follower.actor)) return 'shut_out';
        if (laneFull(accept, maxPendingInLane)) return 'lane_full';
        const outcome = upsert(follower);
        insertJob(accept, now);
        return outcome;
      },
    );
    this.older = db.prepare(
      `SELECT ${COLUMNS} FROM followers WHERE username = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    );
    this.newer = db.prepare(
      `SELECT ${COLUMNS} FROM followers WHERE username = ? AND seq > ? ORDER BY seq ASC LIMIT ?`,
    );
    // Counts entries of the (username, actor) index under one username; no table row is read.
    this.countByUser = db.prepare('SELECT COUNT(*) AS n FROM followers WHERE username = ?');
    this.removeByUser = db.prepare('DELETE FROM followers WHERE actor = ? AND username = ?');
    this.removeByFollowId = db.prepare('DELETE FROM followers WHERE actor = ? AND follow_id = ?');
    this.removeAll = db.prepare('DELETE FROM followers WHERE actor = ?');
    this.findOne = db.prepare(`SELECT ${COLUMNS} FROM followers WHERE username = ? AND actor = ?`);
    this.removeNoticed = db.transaction(
      (username: string, actor: string, notice: (f: Follower) => NewJob, now: Date) => {
        const row = this.findOne.get(username, actor);
        if (!row) return null;
        const follower = FOLLOWER_ROWS.fromRow(row);
        this.removeByUser.run(actor, username);
        insertJob(notice(follower), now);
        return follower;
      },
    );
  }

  async add(
    follower: Follower,
    accept: NewJob,
    now: Date,
    maxPendingInLane = NO_LANE_CAP,
  ): Promise<FollowOutcome> {
    return storeCall(() => this.addFollower.immediate(follower, accept, now, maxPendingInLane));
  }

  async find(username: Username, actor: string): Promise<Follower | null> {
    const row = storeCall(() => this.findOne.get(username, actor));
    return row ? FOLLOWER_ROWS.fromRow(row) : null;
  }

  async removeWithNotice(
    username: Username,
    actor: string,
    notice: (follower: Follower) => NewJob,
    now: Date,
  ): Promise<Follower | null> {
    return storeCall(() => this.removeNoticed.immediate(username, actor, notice, now));
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
    filter: FollowerFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<Follower>[]> {
    // SQLite reads a negative LIMIT as "no limit".
    if (limit <= 0) return [];
    const bound = before ?? NO_POSITION_BOUND;
    if (filter.scope) return this.scopedSeek('older', filter.username, filter.scope, bound, limit);
    return storeCall(() => this.older.all(filter.username, bound, limit)).map(positioned);
  }

  async listNewer(filter: FollowerFilter, after: number, limit: number): Promise<Positioned<Follower>[]> {
    if (limit <= 0) return [];
    if (filter.scope) return this.scopedSeek('newer', filter.username, filter.scope, after, limit);
    return storeCall(() => this.newer.all(filter.username, after, limit)).map(positioned);
  }

  async count(filter: FollowerFilter): Promise<number> {
    if (filter.scope) {
      const statement = this.scopedStatement('count', filter.scope.allowKeys.length);
      const row = storeCall(() => statement.get(filter.username, ...scopeParameters(filter.scope!))) as
        { n: number } | undefined;
      return row?.n ?? 0;
    }
    return storeCall(() => this.countByUser.get(filter.username))?.n ?? 0;
  }

  private scopedSeek(
    direction: 'older' | 'newer',
    username: string,
    scope: NonNullable<HostScope>,
    bound: number,
    limit: number,
  ): Positioned<Follower>[] {
    const statement = this.scopedStatement(direction, scope.allowKeys.length);
    const rows = storeCall(() => statement.all(username, bound, ...scopeParameters(scope), limit));
    return (rows as FollowerRow[]).map(positioned);
  }

  /** The statement of a scoped read for `count` allow keys, prepared once per shape. */
  private scopedStatement(kind: 'older' | 'newer' | 'count', count: number): Statement {
    const name = `${kind} ${count}`;
    let statement = this.scoped.get(name);
    if (statement === undefined) {
      const where = `username = ? ${kind === 'count' ? '' : `AND seq ${kind === 'older' ? '<' : '>'} ?`} AND ${scopeCondition(count)}`;
      statement = this.db.prepare(
        kind === 'count'
          ? `SELECT COUNT(*) AS n FROM followers WHERE ${where}`
          : `SELECT ${COLUMNS} FROM followers WHERE ${where} ORDER BY seq ${kind === 'older' ? 'DESC' : 'ASC'} LIMIT ?`,
      );
      this.scoped.set(name, statement);
    }
    return statement;
  }
}
