import {
  NO_LANE_CAP,
  type FollowerFilter,
  type FollowerRepository,
  type FollowMatch,
  type FollowOutcome,
} from '../../../application/ports/follower-repository.js';
import type { NewJob } from '../../../application/ports/job-queue.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import {
  candidateRuleKeys,
  hostKeyOfUrl,
  ruleKeyRange,
  type HostScope,
} from '../../../domain/domain-rules.js';
import type { Follower } from '../../../domain/follower.js';
import type { Username } from '../../../domain/user.js';
import { FOLLOWER_ROWS } from './codecs/federation-rows.js';
import { assignments, insertSql, type RowOf } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { insertJobs, laneFull } from './postgres-job-insert.js';
import { NO_POSITION_BOUND, seekOrder } from './postgres-seeks.js';
import { named, type Queryable } from './postgres-sql.js';

type FollowerRow = RowOf<typeof FOLLOWER_ROWS.columns> & { seq: number };

const COLUMNS = `seq, ${FOLLOWER_ROWS.list}`;

const positioned = (row: FollowerRow): Positioned<Follower> => ({
  position: row.seq,
  value: FOLLOWER_ROWS.fromRow(row),
});

/**
 * A repeated Follow keeps the follower's place (seq) and takes the new addresses; `xmax = 0` tells a row inserted by
 * this statement from one it updated.
 */
const UPSERT = named<RowOf<typeof FOLLOWER_ROWS.columns>>(
  insertSql(
    FOLLOWER_ROWS,
    `ON CONFLICT (username, actor) DO UPDATE SET
      ${assignments(FOLLOWER_ROWS, ['username', 'actor', 'followed_at'], 'excluded.')}
     RETURNING (xmax = 0) AS inserted`,
  ),
);

/**
 * Whether a block rule covers the host of `actor`, read in the add's transaction. READ COMMITTED: a block that
 * committed before this statement is seen; one committing after it removes this follower in its own write.
 */
async function shutOut(tx: Queryable, actor: string): Promise<boolean> {
  const key = hostKeyOfUrl(actor);
  if (key === null) return false;
  const rows = await tx.query(
    "SELECT 1 FROM domain_rules WHERE kind = 'block' AND host_key = ANY($1::text[]) LIMIT 1",
    [candidateRuleKeys(key)],
  );
  return rows.length > 0;
}

/** The allowlist condition on `host_key` (one range per allow key) from parameter `$at` on, and its parameters. */
function scoped(scope: HostScope | undefined, at: number): { sql: string; params: unknown[] } {
  if (!scope) return { sql: '', params: [] };
  const ranges = scope.allowKeys.map(ruleKeyRange);
  return {
    sql: ` AND EXISTS (SELECT 1 FROM unnest($${at}::text[], $${at + 1}::text[]) AS r(lo, hi)
                      WHERE host_key >= r.lo AND host_key < r.hi)`,
    params: [ranges.map((r) => r.from), ranges.map((r) => r.below)],
  };
}

/** Stores a follower in `tx` (UPSERT: a repeated Follow keeps its place); shared with the follow requests. */
export async function upsertFollower(tx: Queryable, follower: Follower): Promise<'added' | 'updated'> {
  const [row] = await UPSERT.run<{ inserted: boolean }>(tx, FOLLOWER_ROWS.toRow(follower));
  return row?.inserted ? 'added' : 'updated';
}

export class PostgresFollowerRepository implements FollowerRepository {
  constructor(private readonly db: PostgresDatabase) {}

  async add(
    follower: Follower,
    accept: NewJob,
    now: Date,
    maxPendingInLane = NO_LANE_CAP,
  ): Promise<FollowOutcome> {
    return this.db.transaction<FollowOutcome>(async (tx) => {
      // Checked under the lane's lock, with the writes: two Follows cannot both take the last place in the lane.
      if (await shutOut(tx, follower.actor)) return 'shut_out';
      if (await laneFull(tx, accept, maxPendingInLane)) return 'lane_full';
      const outcome = await upsertFollower(tx, follower);
      await insertJobs(tx, [accept], now);
      return outcome;
    });
  }

  async find(username: Username, actor: string): Promise<Follower | null> {
    const [row] = await this.db.query<FollowerRow>(
      `SELECT ${COLUMNS} FROM followers WHERE username = $1 AND actor = $2`,
      [username, actor],
    );
    return row ? FOLLOWER_ROWS.fromRow(row) : null;
  }

  async removeWithNotice(
    username: Username,
    actor: string,
    notice: (follower: Follower) => NewJob,
    now: Date,
  ): Promise<Follower | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<FollowerRow>(
        `DELETE FROM followers WHERE username = $1 AND actor = $2 RETURNING ${COLUMNS}`,
        [username, actor],
      );
      if (!row) return null;
      const follower = FOLLOWER_ROWS.fromRow(row);
      await insertJobs(tx, [notice(follower)], now);
      return follower;
    });
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    const { count } =
      'username' in match
        ? await this.db.query('DELETE FROM followers WHERE actor = $1 AND username = $2', [
            actor,
            match.username,
          ])
        : await this.db.query('DELETE FROM followers WHERE actor = $1 AND follow_id = $2', [
            actor,
            match.followId,
          ]);
    return count;
  }

  async removeActor(actor: string): Promise<number> {
    return (await this.db.query('DELETE FROM followers WHERE actor = $1', [actor])).count;
  }

  async listOlder(
    filter: FollowerFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<Follower>[]> {
    return this.seek(filter, 'older', before ?? NO_POSITION_BOUND, limit);
  }

  async listNewer(filter: FollowerFilter, after: number, limit: number): Promise<Positioned<Follower>[]> {
    return this.seek(filter, 'newer', after, limit);
  }

  async count(filter: FollowerFilter): Promise<number> {
    const scope = scoped(filter.scope, 2);
    const [row] = await this.db.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM followers WHERE username = $1${scope.sql}`,
      [filter.username, ...scope.params],
    );
    return row?.n ?? 0;
  }

  private async seek(
    filter: FollowerFilter,
    direction: 'older' | 'newer',
    bound: number,
    limit: number,
  ): Promise<Positioned<Follower>[]> {
    if (limit <= 0) return [];
    const [comparison, order] = seekOrder(direction);
    const scope = scoped(filter.scope, 4);
    const rows = await this.db.query<FollowerRow>(
      `SELECT ${COLUMNS} FROM followers WHERE username = $1 AND seq ${comparison} $2${scope.sql}
         ORDER BY seq ${order} LIMIT $3`,
      [filter.username, bound, limit, ...scope.params],
    );
    return rows.map(positioned);
  }
}
