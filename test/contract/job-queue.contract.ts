import { expect } from 'chai';
import type { Job, NewJob } from '../../src/application/ports/job-queue.js';
import { later, MINUTE, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';

export const aJob = (n: number): NewJob => ({ kind: 'test_job', payload: { n, nested: { list: [n, 'x'] } } });
export const numbers = (jobs: readonly Job[]): unknown[] => jobs.map((j) => (j.payload as { n: number }).n);

/**
 * The worker's queue. What the operator's side (QueueAdministration) reads of the same jobs is pinned by its own
 * contract; this one uses it only to look.
 */
export function jobQueueContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: JobQueue`, () => {
    const store = useStore(harness);
    const LEASE = MINUTE;

    const claim = (now: Date, leaseId: string, limit = 10): Promise<Job[]> =>
      store().jobs.claim({ now, leaseMs: LEASE, limit, leaseId });

    /** Enqueues one job at T0 and claims it under `lease-1`. */
    async function claimedJob(): Promise<Job> {
      await store().jobs.enqueue([aJob(1)], T0);
      const [job] = await claim(T0, 'lease-1');
      if (!job) throw new Error('Expected a claimed job.');
      return job;
    }

    it('hands out a queued job with its kind, payload and queue time and no failed attempts', async () => {
      await store().jobs.enqueue([aJob(1)], T0);

      const jobs = await claim(later(1), 'lease-1');

      expect(jobs).to.have.length(1);
      expect(jobs[0]).to.deep.include({
        kind: 'test_job',
        payload: aJob(1).payload,
        attempts: 0,
        leaseId: 'lease-1',
      });
      expect(jobs[0]?.queuedAt).to.deep.equal(T0);
      expect(jobs[0]?.id).to.be.a('string');
    });

    it('does not hand out a job before the time it was queued for', async () => {
      await store().jobs.enqueue([aJob(1)], T0);

      expect(await claim(later(-1), 'lease-1')).to.deep.equal([]);
    });

    it('keeps its own copy of a payload', async () => {
      const job = { kind: 'test_job', payload: { n: 1, list: [1] } };
      await store().jobs.enqueue([job], T0);
      job.payload.list.push(2);

      const [claimed] = await claim(T0, 'lease-1');

      expect(claimed?.payload).to.deep.equal({ n: 1, list: [1] });
    });

    it('does not hand out a leased job again while the lease holds', async () => {
      await claimedJob();

      expect(await claim(later(LEASE - 1), 'lease-2')).to.deep.equal([]);
    });

    it('hands a job out again once its lease ran out, and the old lease can no longer complete it', async () => {
      const first = await claimedJob();

      const [second] = await claim(later(LEASE), 'lease-2');

      expect(second?.id).to.equal(first.id);
      expect(second?.leaseId).to.equal('lease-2');
      expect(await store().jobs.complete(first)).to.equal(false);
      expect(await store().jobs.reschedule(first, later(LEASE), 'late')).to.equal(false);
      expect(await store().jobs.abandon(first, 'late')).to.equal(false);
      expect(await store().jobs.complete(second as Job)).to.equal(true);
    });

    it('removes a completed job', async () => {
      const job = await claimedJob();

      expect(await store().jobs.complete(job)).to.equal(true);

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 0, abandoned: 0 });
      expect(await claim(later(10 * LEASE), 'lease-2')).to.deep.equal([]);
      expect(await store().jobs.complete(job)).to.equal(false);
    });

    it('makes a rescheduled job due again only at its new time, with one more failed attempt', async () => {
      const job = await claimedJob();
      const runAt = later(5 * MINUTE);

      expect(await store().jobs.reschedule(job, runAt, 'connection refused')).to.equal(true);

      expect(await claim(later(-1, runAt), 'lease-2')).to.deep.equal([]);
      const [again] = await claim(runAt, 'lease-3');
      expect(again).to.deep.include({ id: job.id, attempts: 1, leaseId: 'lease-3', payload: job.payload });
      expect(again?.queuedAt).to.deep.equal(T0);
      expect(await store().jobs.complete(job)).to.equal(false);
    });

    it('releases the lease of a rescheduled job even when it is due at once', async () => {
      const job = await claimedJob();
      await store().jobs.reschedule(job, T0, 'try again');

      expect(await claim(T0, 'lease-2')).to.have.length(1);
    });

    it('never hands out an abandoned job again, and counts it apart', async () => {
      await store().jobs.enqueue([aJob(2)], T0);
      const job = await claimedJob();

      expect(await store().jobs.abandon(job, 'refused')).to.equal(true);

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 1 });
      const later_ = await claim(later(365 * 24 * 60 * MINUTE), 'lease-2');
      expect(later_.map((j) => j.id)).not.to.include(job.id);
      expect(await store().jobs.complete(job)).to.equal(false);
    });

    it('hands out at most the limit, oldest due first and in queue order among equals', async () => {
      await store().jobs.enqueue([aJob(3)], later(2));
      await store().jobs.enqueue([aJob(1), aJob(2)], later(1));
      await store().jobs.enqueue([aJob(0)], later(0));

      expect(numbers(await claim(later(10), 'lease-1', 3))).to.deep.equal([0, 1, 2]);
      expect(numbers(await claim(later(10), 'lease-2', 3))).to.deep.equal([3]);
      expect(await claim(later(10), 'lease-3', 0)).to.deep.equal([]);
    });

    it('orders a rescheduled job by its new due time', async () => {
      await store().jobs.enqueue([aJob(1)], T0);
      const [first] = await claim(T0, 'lease-1');
      await store().jobs.enqueue([aJob(2)], later(1));
      await store().jobs.reschedule(first as Job, later(2), 'failed');

      expect(numbers(await claim(later(10), 'lease-2'))).to.deep.equal([2, 1]);
    });

    describe('lanes', () => {
      const inLane = (n: number, lane: string): NewJob => ({ ...aJob(n), lane });

      it('gives each job back with its lane, null for one queued without', async () => {
        await store().jobs.enqueue([inLane(1, 'https://a.example'), aJob(2)], T0);

        const jobs = await claim(T0, 'lease-1');

        expect(jobs.map((j) => [numbers([j])[0], j.lane])).to.deep.equal([
          [1, 'https://a.example'],
          [2, null],
        ]);
      });

      it('hands out at most one job of a lane per claim, in due order, and any number without a lane', async () => {
        await store().jobs.enqueue(
          [inLane(1, 'https://a.example'), inLane(2, 'https://a.example'), inLane(3, 'https://b.example')],
          T0,
        );
        await store().jobs.enqueue([aJob(4), aJob(5), inLane(6, 'https://a.example')], later(1));

        expect(numbers(await claim(later(5), 'lease-1'))).to.deep.equal([1, 3, 4, 5]);
        expect(numbers(await claim(later(5), 'lease-2'))).to.deep.equal([2]);
        expect(numbers(await claim(later(5), 'lease-3'))).to.deep.equal([6]);
      });

      it('leaves the skipped lanes out of a claim', async () => {
        await store().jobs.enqueue(
          [inLane(1, 'https://a.example'), inLane(2, 'https://b.example'), inLane(3, 'https://c.example')],
          T0,
        );

        const jobs = await store().jobs.claim({
          now: T0,
          leaseMs: LEASE,
          limit: 10,
          leaseId: 'lease-1',
          skipLanes: ['https://a.example', 'https://c.example'],
        });

        expect(numbers(jobs)).to.deep.equal([2]);
      });

      it('hands out only the named lanes (less the skipped ones) and jobs without a lane, with onlyLanes', async () => {
        await store().jobs.enqueue(
          [
            inLane(1, 'https://a.example'),
            inLane(2, 'https://b.example'),
            inLane(3, 'https://c.example'),
            inLane(4, 'https://b.example'),
            aJob(5),
          ],
          T0,
        );

        const only = (onlyLanes: string[], leaseId: string) =>
          store().jobs.claim({
            now: T0,
            leaseMs: LEASE,
            limit: 10,
            leaseId,
            skipLanes: ['https://c.example'],
            onlyLanes,
          });

        expect(
          numbers(await only(['https://b.example', 'https://c.example', 'https://d.example'], 'l1')),
        ).to.deep.equal([2, 5]);
        expect(numbers(await only([], 'l2'))).to.deep.equal([]);
        expect(numbers(await only(['https://a.example', 'https://b.example'], 'l3'))).to.deep.equal([1, 4]);
      });

      describe('backing a lane off', () => {
        const a = 'https://a.example';
        const b = 'https://b.example';

        it('claims none of its jobs before `until` — waiting or queued meanwhile — while other lanes go on', async () => {
          await store().jobs.enqueue([inLane(1, a), inLane(2, a), inLane(3, b)], T0);

          await store().jobs.postponeLane(a, later(5 * MINUTE), later(1));
          await store().jobs.enqueue([inLane(4, a), inLane(5, b)], later(2 * MINUTE));

          const [other] = await claim(later(2 * MINUTE), 'lease-1');
          expect(numbers([other as Job])).to.deep.equal([3]);
          await store().jobs.complete(other as Job);
          expect(numbers(await claim(later(5 * MINUTE - 1), 'lease-2'))).to.deep.equal([5]);
          const [first] = await claim(later(5 * MINUTE), 'lease-3');
          expect(numbers([first as Job])).to.deep.equal([1]);
          expect(first?.attempts, 'a back-off counts no attempt').to.equal(0);
        });

        it('holds against a claim naming the lane in onlyLanes', async () => {
          await store().jobs.enqueue([inLane(1, a), inLane(2, b)], T0);
          await store().jobs.postponeLane(a, later(MINUTE), T0);

          const jobs = await store().jobs.claim({
            now: T0,
            leaseMs: LEASE,
            limit: 10,
            leaseId: 'lease-1',
            onlyLanes: [a, b],
          });

          expect(numbers(jobs)).to.deep.equal([2]);
        });

        it('leaves a job leased before it with its worker, who can still complete it', async () => {
          await store().jobs.enqueue([inLane(1, a), inLane(2, a)], T0);
          const [leased] = await claim(T0, 'lease-1');

          await store().jobs.postponeLane(a, later(5 * MINUTE), later(1));

          expect(await store().jobs.complete(leased as Job)).to.equal(true);
          expect(await claim(later(5 * MINUTE - 1), 'lease-2')).to.deep.equal([]);
          expect(numbers(await claim(later(5 * MINUTE), 'lease-3'))).to.deep.equal([2]);
        });

        it('extends with a later `until` and is never shortened by an earlier one', async () => {
          await store().jobs.enqueue([inLane(1, a)], T0);

          await store().jobs.postponeLane(a, later(5 * MINUTE), T0);
          await store().jobs.postponeLane(a, later(10 * MINUTE), later(1));
          await store().jobs.postponeLane(a, later(2 * MINUTE), later(2));

          expect(await claim(later(10 * MINUTE - 1), 'lease-1')).to.deep.equal([]);
          expect(numbers(await claim(later(10 * MINUTE), 'lease-2'))).to.deep.equal([1]);
        });

        it('applies to a lane that had no job when it was backed off, and is over at `until`', async () => {
          await store().jobs.postponeLane(a, later(MINUTE), T0);
          await store().jobs.enqueue([inLane(1, a)], later(1));

          expect(await claim(later(MINUTE - 1), 'lease-1')).to.deep.equal([]);
          // A later back-off of another lane may forget this one, which is over: its job is claimed all the same.
          await store().jobs.postponeLane(b, later(2 * MINUTE), later(MINUTE));
          expect(numbers(await claim(later(MINUTE), 'lease-2'))).to.deep.equal([1]);
        });
      });
    });

    describe('replace keys', () => {
      const keyed = (n: number, replaceKey: string, lane = 'https://a.example'): NewJob => ({
        ...aJob(n),
        lane,
        replaceKey,
      });

      it('keeps one pending job per key: queuing another replaces it, as if just queued', async () => {
        await store().jobs.enqueue([keyed(1, 'k')], T0);
        const [first] = await claim(T0, 'lease-1');
        await store().jobs.reschedule(first as Job, later(MINUTE), 'answered 503');

        await store().jobs.enqueue([keyed(2, 'k')], later(2 * MINUTE));

        expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 0 });
        const [listed] = await store().queueAdministration.list({ kind: null, limit: 10 }, later(2 * MINUTE));
        expect([listed?.attempts, listed?.lastError, listed?.queuedAt]).to.deep.equal([
          0,
          null,
          later(2 * MINUTE),
        ]);
        const [replaced] = await claim(later(2 * MINUTE), 'lease-2');
        expect(numbers([replaced as Job])).to.deep.equal([2]);
        expect(replaced?.id, 'the job keeps its place').to.equal(first?.id);
      });

      it('adds jobs of other keys, and jobs without one, beside it', async () => {
        await store().jobs.enqueue([keyed(1, 'k'), keyed(2, 'other', 'https://b.example'), aJob(3)], T0);
        await store().jobs.enqueue([keyed(4, 'k'), aJob(5)], T0);

        expect(numbers(await claim(T0, 'lease-1'))).to.deep.equal([4, 2, 3, 5]);
      });

      it('takes a replaced job away from the worker running it: its lease can no longer touch it', async () => {
        await store().jobs.enqueue([keyed(1, 'k')], T0);
        const [running] = await claim(T0, 'lease-1');

        await store().jobs.enqueue([keyed(2, 'k')], later(1));

        expect(await store().jobs.complete(running as Job)).to.equal(false);
        expect(await store().jobs.abandon(running as Job, 'late')).to.equal(false);
        expect(numbers(await claim(later(1), 'lease-2'))).to.deep.equal([2]);
      });
    });

    it('hands each of 30 due jobs to exactly one of 10 concurrent claims', async () => {
      await store().jobs.enqueue(
        Array.from({ length: 30 }, (_, n) => aJob(n)),
        T0,
      );

      const batches = await Promise.all(
        Array.from({ length: 10 }, (_, i) => claim(later(1), `lease-${i}`, 5)),
      );

      const ids = batches.flat().map((j) => j.id);
      expect(ids).to.have.length(30);
      expect(new Set(ids).size).to.equal(30);
    });
  });
}
