// Rule: queued outbound work is done at least once — retried with growing delays for 24 hours, given up at once
// when refused for good — and a destination that fails is backed off as a whole so it never holds up the others.
import { nextAttemptAt, retryDelayMs, type RetryPolicy } from '../../domain/delivery-policy.js';
import { isJobKind, type JobKind, type JobPayloads } from '../../domain/jobs.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryOutcome } from '../ports/delivery-outcome.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { Job, JobQueue } from '../ports/job-queue.js';
import { IGNORE_JOBS, type DestinationClass, type JobObserver } from '../ports/job-observer.js';
import type { ProblemLog } from '../ports/problem-log.js';

/** One handler per job kind: the map is total, so a kind without a handler does not compile. */
export type JobHandlers = {
  readonly [K in JobKind]: (payload: JobPayloads[K]) => Promise<DeliveryOutcome>;
};

export interface RunnerLimits {
  /** Jobs in flight at once, over all lanes. */
  readonly concurrency: number;
  /** Jobs in flight at once in a lane that answers; a lane not yet proven, or failing, gets one at a time. */
  readonly perLane: number;
  /** Longer than one attempt may take (10 s timeout), so a live worker never loses its lease mid-attempt. */
  readonly leaseMs: number;
  /**
   * Jobs in flight at once in lanes not proven (new, or failing); half of `concurrency` when not given. The other
   * slots stay for hosts that answer, so any number of hosts that hang cannot take them all.
   */
  readonly untried?: number;
}

export const DEFAULT_RUNNER_LIMITS: RunnerLimits = { concurrency: 512, perLane: 2, leaseMs: 60_000 };

/** What this process knows of one destination. */
interface Lane {
  running: number;
  /** Answered well since its last failure: may take `perLane` jobs at once. */
  proven: boolean;
  /** Failures in a row. */
  failures: number;
  /** Epoch ms until which its jobs wait: this process's copy of the store's back-off of the lane. */
  backedOffUntil: number;
}

/** Lanes remembered at most; idle ones are forgotten first (they start again as unproven). */
const MAX_LANES = 10_000;

/**
 * Claims due jobs and runs each with the handler of its kind, keeping up to `concurrency` in flight without waiting
 * for a batch to finish: a slow job holds one slot, not the others. Each lane (destination) runs at most `perLane`
 * jobs at once — one while unproven — and after a failure the whole lane waits, longer after each failure in a
 * row: the back-off is recorded in the store as one record for the lane (JobQueue.postponeLane, whatever the lane's
 * backlog), which every process's claims respect, and kept here too so that this process does not even ask. Unproven
 * lanes hold at most half the slots, so any number of hosts that never answer cannot take them all.
 */
export class JobRunner {
  private readonly running = new Set<Promise<void>>();
  private readonly lanes = new Map<string, Lane>();
  private claiming = false;
  /** Jobs in flight in lanes that were not proven when they started. */
  private untriedInFlight = 0;

  constructor(
    private readonly jobs: JobQueue,
    private readonly handlers: JobHandlers,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly policy: RetryPolicy,
    private readonly problems: ProblemLog,
    private readonly limits: RunnerLimits = DEFAULT_RUNNER_LIMITS,
    /** Called whenever a job settles, so the worker can claim into the freed slot. */
    private readonly onSettled: () => void = () => {},
    private readonly observer: JobObserver = IGNORE_JOBS,
  ) {}

  private get untriedSlots(): number {
    return this.limits.untried ?? Math.max(1, Math.floor(this.limits.concurrency / 2));
  }

  /** Jobs in flight now. */
  get inFlight(): number {
    return this.running.size;
  }

  /**
   * Claims as many due jobs as there is room for and starts them, without waiting for them; returns how many it
   * started. Claims only once a sixteenth of the slots is free (or none is busy), so each settling job does not
   * cost a claim of its own.
   */
  async start(): Promise<number> {
    const room = this.limits.concurrency - this.running.size;
    const worthClaiming =
      room >= Math.max(1, Math.floor(this.limits.concurrency / 16)) || this.running.size === 0;
    if (this.claiming || room <= 0 || !worthClaiming) return 0;
    this.claiming = true;
    try {
      const now = this.clock.now();
      // Lanes not proven (new, or failing) share at most half the slots, so hosts that hang — however many — leave
      // the other half to hosts that answer. When that share binds, proven lanes are served first.
      const untriedRoom = Math.max(0, this.untriedSlots - this.untriedInFlight);
      // One job per lane per start, as per claim: the second claim leaves out the lanes the first one served.
      const served = new Set<string>();
      if (untriedRoom < room) await this.claimAndLaunch(now, room, served, this.provenLanesWithRoom(now));
      const rest = Math.min(room - served.size, untriedRoom);
      if (rest > 0) await this.claimAndLaunch(now, rest, served);
      return served.size;
    } finally {
      this.claiming = false;
    }
  }

  /** Claims up to `limit` jobs (of `onlyLanes` only, when given) and starts them; each is added to `served`. */
  private async claimAndLaunch(
    now: Date,
    limit: number,
    served: Set<string>,
    onlyLanes?: readonly string[],
  ): Promise<void> {
    if (onlyLanes?.length === 0) return;
    const batch = await this.jobs.claim({
      now,
      leaseMs: this.limits.leaseMs,
      limit,
      leaseId: this.ids.newId(),
      skipLanes: [...this.unavailableLanes(now.getTime()), ...served],
      ...(onlyLanes ? { onlyLanes } : {}),
    });
    for (const job of batch) {
      served.add(job.lane ?? job.id);
      this.launch(job);
    }
  }

  /** Resolves once every job started so far has settled. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  /** Starts what is due and waits for it to settle; returns how many jobs ran. */
  async runOnce(): Promise<number> {
    const started = await this.start();
    await this.settled();
    return started;
  }

  private launch(job: Job): void {
    const lane = job.lane === null ? null : this.laneOf(job.lane);
    const untried = lane !== null && !lane.proven;
    if (lane) lane.running++;
    if (untried) this.untriedInFlight++;
    const destination: DestinationClass = lane === null ? 'none' : untried ? 'untried' : 'proven';
    const run = this.run(job, lane, destination).finally(() => {
      if (lane) lane.running--;
      if (untried) this.untriedInFlight--;
      this.running.delete(run);
      this.onSettled();
    });
    this.running.add(run);
  }

  /** Never rejects: a store that cannot record the outcome leaves the job leased, and it runs again later. */
  private async run(job: Job, lane: Lane | null, destination: DestinationClass): Promise<void> {
    try {
      if (!isJobKind(job.kind)) {
        this.problems.error(
          { jobId: job.id, kind: job.kind },
          'job of an unknown kind given up: this is a bug',
        );
        await this.jobs.abandon(job, `unknown job kind ${job.kind}`);
        return;
      }
      const outcome = await this.handle(job.kind, job);
      const gaveUp = await this.record(job, lane, outcome);
      this.observer.attempted(job.kind, gaveUp ? 'gave_up' : outcome.kind, destination);
    } catch (error) {
      this.problems.error({ err: error, jobId: job.id, kind: job.kind }, 'job could not be run or recorded');
    }
  }

  private async handle<K extends JobKind>(kind: K, job: Job): Promise<DeliveryOutcome> {
    const handler = this.handlers[kind] as (payload: JobPayloads[K]) => Promise<DeliveryOutcome>;
    try {
      return await handler(job.payload as JobPayloads[K]);
    } catch (error) {
      // A handler must answer with an outcome; a throw is a bug, but the job may still succeed later.
      this.problems.error({ err: error, jobId: job.id, kind }, 'job handler threw; the job is retried');
      return { kind: 'failed', reason: 'internal error' };
    }
  }

  /** Records the outcome in the store; true when a failed job was given up (its 24 hours are over). */
  private async record(job: Job, lane: Lane | null, outcome: DeliveryOutcome): Promise<boolean> {
    switch (outcome.kind) {
      case 'delivered':
        if (lane) Object.assign(lane, { proven: true, failures: 0 });
        await this.jobs.complete(job);
        return false;
      case 'dropped':
        // Done, unsent: a domain rule shuts the destination out (the lane is neither proven nor failing).
        await this.jobs.complete(job);
        return false;
      case 'refused':
        this.problems.warn(
          { jobId: job.id, kind: job.kind, lane: job.lane, reason: outcome.reason },
          'job given up',
        );
        await this.jobs.abandon(job, outcome.reason);
        return false;
      case 'failed': {
        const now = this.clock.now();
        const random = this.ids.random();
        const retryAt = nextAttemptAt({
          policy: this.policy,
          failedAttempts: job.attempts + 1,
          firstQueuedAt: job.queuedAt,
          now,
          random,
        });
        let runAt = retryAt;
        if (lane && job.lane !== null) {
          lane.proven = false;
          lane.failures++;
          const until = new Date(now.getTime() + retryDelayMs(this.policy, lane.failures, random));
          // As the store's: a back-off only ever extends (two failures settling out of order, with jitter).
          lane.backedOffUntil = Math.max(lane.backedOffUntil, until.getTime());
          await this.jobs.postponeLane(job.lane, until, now);
          if (runAt && runAt < until) runAt = until;
        }
        if (runAt) {
          await this.jobs.reschedule(job, runAt, outcome.reason);
          return false;
        }
        this.problems.warn(
          { jobId: job.id, kind: job.kind, lane: job.lane, reason: outcome.reason },
          'job given up after retrying',
        );
        await this.jobs.abandon(job, outcome.reason);
        return true;
      }
    }
  }

  /** Proven lanes that may take another job now. */
  private provenLanesWithRoom(now: Date): string[] {
    const at = now.getTime();
    const lanes: string[] = [];
    for (const [name, lane] of this.lanes)
      if (lane.proven && lane.running < this.limits.perLane && lane.backedOffUntil <= at) lanes.push(name);
    return lanes;
  }

  /** Lanes at their limit of jobs in flight, or backed off: the next claim leaves them out. */
  private unavailableLanes(now: number): string[] {
    const unavailable: string[] = [];
    for (const [name, lane] of this.lanes) {
      const limit = lane.proven ? this.limits.perLane : 1;
      if (lane.running >= limit || lane.backedOffUntil > now) unavailable.push(name);
    }
    return unavailable;
  }

  private laneOf(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) {
      if (this.lanes.size >= MAX_LANES) this.forgetIdleLanes();
      lane = { running: 0, proven: false, failures: 0, backedOffUntil: 0 };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  private forgetIdleLanes(): void {
    const now = this.clock.now().getTime();
    for (const [name, lane] of this.lanes) {
      if (lane.running === 0 && lane.backedOffUntil <= now) this.lanes.delete(name);
    }
  }
}
