import { expect } from 'chai';
import type { Job, NewJob } from '../../src/application/ports/job-queue.js';
import { later, MINUTE, T0 } from '../support/builders.js';
import { useStore, type PersistenceHarness } from './harness.js';
import { aJob, numbers } from './job-queue.contract.js';

/** The operator's side of the queue: counts, `l2 queue list`, retry and drop, over jobs the worker's port queued. */
export function queueAdministrationContract(name: string, harness: PersistenceHarness): void {
  describe(`${name}: QueueAdministration`, () => {
    const store = useStore(harness);
    const LEASE = MINUTE;
    const claim = (now: Date, leaseId: string, limit = 10): Promise<Job[]> =>
      store().jobs.claim({ now, leaseMs: LEASE, limit, leaseId });
    const inLane = (n: number, lane: string): NewJob => ({ ...aJob(n), lane });
    const keyed = (n: number, replaceKey: string, lane = 'https://a.example'): NewJob => ({
      ...aJob(n),
      lane,
      replaceKey,
    });
    const a = 'https://a.example';
    const b = 'https://b.example';

    it('counts leased and waiting jobs as pending', async () => {
      await store().jobs.enqueue([aJob(1), aJob(2), aJob(3)], T0);
      await claim(T0, 'lease-1', 2);

      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 3, abandoned: 0 });
    });

    it('counts pending and abandoned jobs by kind, with when the oldest pending one was queued', async () => {
      await store().jobs.enqueue([{ kind: 'revocation_notice', payload: 1 }], T0);
      await store().jobs.enqueue(
        [
          { kind: 'revocation_notice', payload: 2 },
          { kind: 'activity_delivery', payload: 3 },
        ],
        later(MINUTE),
      );
      const [first] = await claim(later(MINUTE), 'lease-1', 1);
      await store().jobs.abandon(first as Job, 'refused');

      expect(await store().queueAdministration.statsByKind()).to.deep.equal([
        { kind: 'activity_delivery', pending: 1, abandoned: 0, oldestPendingQueuedAt: later(MINUTE) },
        { kind: 'revocation_notice', pending: 1, abandoned: 1, oldestPendingQueuedAt: later(MINUTE) },
      ]);
    });

    it('lists jobs in queue order, by kind, and retries or drops only abandoned ones', async () => {
      await store().jobs.enqueue(
        [
          { kind: 'revocation_notice', payload: { n: 1 }, lane: 'https://a.example' },
          { kind: 'activity_delivery', payload: { n: 2 }, lane: 'https://b.example' },
          { kind: 'revocation_notice', payload: { n: 3 }, lane: 'https://c.example' },
        ],
        T0,
      );
      const [first, second] = await claim(T0, 'lease-1', 2);
      await store().jobs.abandon(first as Job, 'answered 410');
      await store().jobs.abandon(second as Job, 'answered 404');
      const [third] = await claim(T0, 'lease-2', 1);

      const listed = await store().queueAdministration.list({ kind: null, limit: 10 }, T0);
      expect(listed.map((j) => [j.kind, j.state, j.leased, j.lastError])).to.deep.equal([
        ['revocation_notice', 'abandoned', false, 'answered 410'],
        ['activity_delivery', 'abandoned', false, 'answered 404'],
        ['revocation_notice', 'pending', true, null],
      ]);
      expect(
        (await store().queueAdministration.list({ kind: 'revocation_notice', limit: 1 }, T0)).map(
          (j) => j.state,
        ),
      ).to.deep.equal(['abandoned']);
      expect(numbers([third as Job])).to.deep.equal([3]);

      expect(
        await store().queueAdministration.retryAbandoned('revocation_notice', later(60 * MINUTE)),
      ).to.equal(1);
      const retried = (
        await store().queueAdministration.list({ kind: 'revocation_notice', limit: 10 }, later(60 * MINUTE))
      )[0]!;
      expect([retried.state, retried.attempts, retried.lastError]).to.deep.equal([
        'pending',
        0,
        'answered 410',
      ]);
      expect(retried.queuedAt).to.deep.equal(later(60 * MINUTE));
      // Job 3's lease ran out long ago; the retried job 1 is due now, after it.
      expect(numbers(await claim(later(60 * MINUTE), 'lease-3'))).to.deep.equal([3, 1]);

      expect(await store().queueAdministration.dropAbandoned(null)).to.equal(1);
      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 2, abandoned: 0 });
      expect(await store().queueAdministration.dropAbandoned(null)).to.equal(0);
    });

    it("lists the lane's jobs as due at the end of the back-off", async () => {
      await store().jobs.enqueue([inLane(1, a), inLane(2, b)], T0);
      await store().jobs.postponeLane(a, later(5 * MINUTE), T0);

      const listed = await store().queueAdministration.list({ kind: null, limit: 10 }, T0);

      expect(listed.map((j) => [j.lane, j.runAt])).to.deep.equal([
        [a, later(5 * MINUTE)],
        [b, T0],
      ]);
    });

    it('adds a job beside an abandoned one of its key, and retries only the newest of a key, none while one waits', async () => {
      await store().jobs.enqueue([keyed(1, 'k')], T0);
      const [one] = await claim(T0, 'lease-1');
      await store().jobs.abandon(one as Job, 'answered 410');
      await store().jobs.enqueue([keyed(2, 'k')], later(1));
      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 1 });

      expect(
        await store().queueAdministration.retryAbandoned(null, later(2)),
        'job 2 holds the key',
      ).to.equal(0);

      const [two] = await claim(later(2), 'lease-2');
      await store().jobs.abandon(two as Job, 'answered 410');
      expect(await store().queueAdministration.retryAbandoned(null, later(3))).to.equal(1);
      expect(await store().queueAdministration.stats()).to.deep.equal({ pending: 1, abandoned: 1 });
      expect(numbers(await claim(later(3), 'lease-3'))).to.deep.equal([2]);
    });
  });
}
