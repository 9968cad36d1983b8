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
import { insertSql, type RowOf } from './postgres-codec.js';
import type { PostgresDatabase } from './postgres-database.js';
import { upsertFollower } from './postgres-follower-repository.js';
import { insertJobs } from './postgres-job-insert.js';
import { NO_POSITION_BOUND, seekOrder } from './postgres-seeks.js';
import { named, type Queryable } from './postgres-sql.js';

type RequestRow = RowOf<typeof FOLLOW_REQUEST_ROWS.columns> & { seq: number };

const COLUMNS = `seq, ${FOLLOW_REQUEST_ROWS.list}`;

const positioned = (row: RequestRow): Positioned<FollowRequest> => ({
  position: row.seq,
  value: FOLLOW_REQUEST_ROWS.fromRow(row),
});

/** A repeated Follow keeps the request's id, place and time and takes the new Follow id and inboxes. */
const UPSERT = named<RowOf<typeof FOLLOW_REQUEST_ROWS.columns>>(
  insertSql(
    FOLLOW_REQUEST_ROWS,
    `ON CONFLICT (username, actor) DO UPDATE SET
      inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, follow_id = excluded.follow_id
     RETURNING (xmax = 0) AS inserted`,
  ),
);

/** Removes the user's request of that id (locking it, so two decisions of one request cannot both run). */
async function takeRequest(tx: Queryable, username: string, id: string): Promise<FollowRequest | null> {
  const [row] = await tx.query<RequestRow>(
    `DELETE FROM follow_requests WHERE username = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [username, id],
  );
  return row ? FOLLOW_REQUEST_ROWS.fromRow(row) : null;
}

async function acceptTaken(
  tx: Queryable,
  request: FollowRequest,
  job: DecisionJob,
  now: Date,
): Promise<void> {
  await upsertFollower(tx, followerOf(request, now));
  await insertJobs(tx, [job(request)], now);
}

/** Follow requests in `follow_requests` (migration 9); every decision is one transaction. */
export class PostgresFollowRequestStore implements FollowRequestStore {
  constructor(private readonly db: PostgresDatabase) {}

  async add(request: FollowRequest): Promise<FollowRequestOutcome> {
    const [row] = await UPSERT.run<{ inserted: boolean }>(this.db, FOLLOW_REQUEST_ROWS.toRow(request));
    return row?.inserted ? 'added' : 'updated';
  }

  async find(username: Username, id: string): Promise<FollowRequest | null> {
    const [row] = await this.db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM follow_requests WHERE username = $1 AND id = $2`,
      [username, id],
    );
    return row ? FOLLOW_REQUEST_ROWS.fromRow(row) : null;
  }

  async accept(username: Username, id: string, job: DecisionJob, now: Date): Promise<FollowRequest | null> {
    return this.db.transaction(async (tx) => {
      const request = await takeRequest(tx, username, id);
      if (request) await acceptTaken(tx, request, job, now);
      return request;
    });
  }

  async reject(username: Username, id: string, job: DecisionJob, now: Date): Promise<FollowRequest | null> {
    return this.db.transaction(async (tx) => {
      const request = await takeRequest(tx, username, id);
      if (request) await insertJobs(tx, [job(request)], now);
      return request;
    });
  }

  async acceptAll(username: Username, job: DecisionJob, now: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<RequestRow>(
        `DELETE FROM follow_requests WHERE seq IN (
           SELECT seq FROM follow_requests WHERE username = $1 ORDER BY seq ASC LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}`,
        [username, limit],
      );
      const requests = [...rows].sort((a, b) => a.seq - b.seq).map((row) => FOLLOW_REQUEST_ROWS.fromRow(row));
      for (const request of requests) await acceptTaken(tx, request, job, now);
      return requests.length;
    });
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    const { count } =
      'username' in match
        ? await this.db.query('DELETE FROM follow_requests WHERE actor = $1 AND username = $2', [
            actor,
            match.username,
          ])
        : await this.db.query('DELETE FROM follow_requests WHERE actor = $1 AND follow_id = $2', [
            actor,
            match.followId,
          ]);
    return count;
  }

  async removeActor(actor: string): Promise<number> {
    return (await this.db.query('DELETE FROM follow_requests WHERE actor = $1', [actor])).count;
  }

  async listOlder(
    filter: FollowRequestFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    return this.seek(filter, 'older', before ?? NO_POSITION_BOUND, limit);
  }

  async listNewer(
    filter: FollowRequestFilter,
    after: number,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    return this.seek(filter, 'newer', after, limit);
  }

  async count(filter: FollowRequestFilter): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM follow_requests WHERE username = $1',
      [filter.username],
    );
    return row?.n ?? 0;
  }

  private async seek(
    filter: FollowRequestFilter,
    direction: 'older' | 'newer',
    bound: number,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    if (limit <= 0) return [];
    const [comparison, order] = seekOrder(direction);
    const rows = await this.db.query<RequestRow>(
      `SELECT ${COLUMNS} FROM follow_requests WHERE username = $1 AND seq ${comparison} $2 ORDER BY seq ${order} LIMIT $3`,
      [filter.username, bound, limit],
    );
    return rows.map(positioned);
  }
}
