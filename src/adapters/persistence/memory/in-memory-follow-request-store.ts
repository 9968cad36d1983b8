import type {
  DecisionJob,
  FollowRequestFilter,
  FollowRequestOutcome,
  FollowRequestStore,
} from '../../../application/ports/follow-request-store.js';
import type { FollowMatch } from '../../../application/ports/follower-repository.js';
import type { Positioned } from '../../../application/ports/positioned.js';
import { followerOf, renewedRequest, type FollowRequest } from '../../../domain/follow-request.js';
import type { Username } from '../../../domain/user.js';
import { MemoryDatabase, type StoredFollowRequest } from './memory-database.js';
import { seekNewer, seekOlder } from './seek.js';

const requestOf = (stored: StoredFollowRequest): FollowRequest => ({ ...stored.request });

export class InMemoryFollowRequestStore implements FollowRequestStore {
  constructor(private readonly db: MemoryDatabase = new MemoryDatabase()) {}

  async add(request: FollowRequest): Promise<FollowRequestOutcome> {
    this.db.assertOpen();
    const waiting = this.db.followRequests.find(
      (s) => s.request.username === request.username && s.request.actor === request.actor,
    );
    if (waiting) {
      waiting.request = renewedRequest(waiting.request, request);
      return 'updated';
    }
    this.db.followRequests.push({ position: ++this.db.lastFollowRequestPosition, request: { ...request } });
    return 'added';
  }

  async find(username: Username, id: string): Promise<FollowRequest | null> {
    this.db.assertOpen();
    const stored = this.stored(username, id);
    return stored ? requestOf(stored) : null;
  }

  async accept(
    username: Username,
    id: string,
    accept: DecisionJob,
    now: Date,
  ): Promise<FollowRequest | null> {
    this.db.assertOpen();
    const stored = this.stored(username, id);
    if (!stored) return null;
    this.acceptStored([stored], accept, now);
    return requestOf(stored);
  }

  async reject(
    username: Username,
    id: string,
    reject: DecisionJob,
    now: Date,
  ): Promise<FollowRequest | null> {
    this.db.assertOpen();
    const stored = this.stored(username, id);
    if (!stored) return null;
    const job = reject(stored.request);
    // Checked before the first change, so a payload JSON cannot hold leaves nothing half-written.
    JSON.stringify(job.payload);
    this.drop([stored]);
    this.db.insertJob(job, now);
    return requestOf(stored);
  }

  async acceptAll(username: Username, accept: DecisionJob, now: Date, limit: number): Promise<number> {
    this.db.assertOpen();
    const oldest = this.db.followRequests.filter((s) => s.request.username === username).slice(0, limit);
    this.acceptStored(oldest, accept, now);
    return oldest.length;
  }

  async remove(actor: string, match: FollowMatch): Promise<number> {
    this.db.assertOpen();
    return this.drop(
      this.db.followRequests.filter(
        (s) =>
          s.request.actor === actor &&
          ('username' in match
            ? s.request.username === match.username
            : s.request.followId === match.followId),
      ),
    );
  }

  async removeActor(actor: string): Promise<number> {
    this.db.assertOpen();
    return this.drop(this.db.followRequests.filter((s) => s.request.actor === actor));
  }

  async listOlder(
    filter: FollowRequestFilter,
    before: number | null,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    this.db.assertOpen();
    return seekOlder(this.db.followRequests, before, limit, this.of(filter), requestOf);
  }

  async listNewer(
    filter: FollowRequestFilter,
    after: number,
    limit: number,
  ): Promise<Positioned<FollowRequest>[]> {
    this.db.assertOpen();
    return seekNewer(this.db.followRequests, after, limit, this.of(filter), requestOf);
  }

  async count(filter: FollowRequestFilter): Promise<number> {
    this.db.assertOpen();
    return this.db.followRequests.filter(this.of(filter)).length;
  }

  private of(filter: FollowRequestFilter): (s: StoredFollowRequest) => boolean {
    return (s) => s.request.username === filter.username;
  }

  private stored(username: Username, id: string): StoredFollowRequest | undefined {
    return this.db.followRequests.find((s) => s.request.username === username && s.request.id === id);
  }

  /** Every job made first (a payload JSON cannot hold fails before any change), then every change. */
  private acceptStored(requests: readonly StoredFollowRequest[], accept: DecisionJob, now: Date): void {
    const jobs = requests.map((s) => accept(s.request));
    for (const job of jobs) JSON.stringify(job.payload);
    this.drop(requests);
    for (const [i, s] of requests.entries()) {
      this.db.upsertFollower(followerOf(s.request, now));
      this.db.insertJob(jobs[i]!, now);
    }
  }

  private drop(requests: readonly StoredFollowRequest[]): number {
    const gone = new Set(requests);
    this.db.followRequests = this.db.followRequests.filter((s) => !gone.has(s));
    return requests.length;
  }
}
